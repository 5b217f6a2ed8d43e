import LocatedYAML
import SchemaValidation
import SiteModel

#if canImport(Glibc)
import Glibc
#endif

// libFuzzer over the parse-and-validate stage. One input is one file's bytes: it is read as a free page
// (front matter and Markdown), then parsed as YAML and checked as a site configuration, as a kind schema
// (with its derived fields), and as a listing of a kind that has a field of every type. A diagnostic is the expected outcome for most inputs; a crash, a hang or a sanitizer report is a bug.
// Built only by scripts/fuzz.sh (see Package.swift), with `-sanitize=fuzzer,address`.

/// A schema with every field type, so listings exercise every checker.
private let everyTypeSchema: KindSchema = {
    let text = """
        title: Things
        title_field: name
        date_field: added
        sort: [-added, name]
        fields:
          name: {type: string, required: true}
          notes: markdown
          count: {type: int, minimum: 0, maximum: 100}
          price: {type: decimal, scale: 2, minimum: 0, format: currency}
          rating: {type: decimal, scale: 1, maximum: 5, format: rating}
          open: {type: bool, default: true}
          added: date
          website: url
          email: {type: email, private: true}
          phone: {type: phone, private: true}
          photo: image
          size: {type: enum, values: [small, large]}
          tags: {type: list, of: string}
          greeting: {type: markdown, placeholders: [contact, place]}
          photos: {type: list, of: image}
          address: {type: object, fields: {town: {type: string, required: true}, street: {type: string, private: true}}}
          owner: {type: reference, to: owners}
        """
    let node = try! parseYAML(Array(text.utf8), file: "things.yaml")
    return decodeKindSchema(node, kind: "things", file: "things.yaml", knownKinds: ["things", "owners"]).0!
}()

private let everyTypeValidator = ListingValidator(schema: everyTypeSchema, mediaFiles: ["a.png", "things/b.jpg"])

func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = decodePage(bytes, file: "fuzz.md", slug: "fuzz")
    let node: YAMLNode?
    do throws(Diagnostic) {
        node = try parseYAML(bytes, file: "fuzz.yaml")
    } catch {
        return 0
    }
    _ = decodeSiteConfig(node, file: "fuzz.yaml")
    let (schema, _) = decodeKindSchema(node, kind: "things", file: "fuzz.yaml", knownKinds: ["things", "owners"])
    if let schema {
        _ = checkDerivedFields([schema])
        // The input is a valid schema: check the input against itself too, to reach the checkers it declares.
        _ = ListingValidator(schema: schema, mediaFiles: ["a.png"]).validate(node, file: "fuzz.yaml", slug: "fuzz")
    }
    _ = everyTypeValidator.validate(node, file: "fuzz.yaml", slug: "fuzz")
    return 0
}

/// libFuzzer's driver, which takes the entry point as an argument. SwiftPM gives every executable a `main`
/// of its own, so libFuzzer's `main` (which would call `LLVMFuzzerTestOneInput`) cannot be used.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

// Made before fuzzing starts, so LeakSanitizer does not count it against the first input.
_ = everyTypeValidator
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
