import CatalogueIndex
import Enrichment
import Foundation
import LocatedYAML
import Markdown
import Rendering
import SchemaValidation
import SiteModel
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// libFuzzer over parsing, validation and rendering. One input is one file's bytes: it is checked and rendered
// as Markdown, read as a free page (front matter and Markdown), then parsed as YAML and checked as a site
// configuration, as a kind schema (with its derived fields), and as a listing of a kind that has a field of
// every type; a valid listing is enriched and its whole one-listing site rendered with the repository's
// templates. A diagnostic is the expected outcome for most inputs; a crash, a hang, a sanitizer report, or
// output over `maxOutputBytes` is a bug. Memory is bounded by libFuzzer's -rss_limit_mb and -malloc_limit_mb.
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
    return decodeKindSchema(node, kind: "things", file: "things.yaml", knownKinds: ["things", "owners"], reservedFacetNames: [:]).0!
}()

private let everyTypeValidator = ListingValidator(schema: everyTypeSchema, mediaFiles: ["a.png", "things/b.jpg"])

private let site = SiteConfig(
    title: "Fuzz", description: "", baseURL: "https://example.org/", language: "en", currency: "EUR", pageSize: 24,
    allowRawHTML: false, kinds: ["things"])

/// The repository's templates, read once from the working folder (scripts/fuzz.sh runs from the repository).
private let templates: TemplateSet = {
    var sources: [String: (file: String, text: String)] = [:]
    let root = URL(fileURLWithPath: "templates")
    for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! where url.pathExtension == "mustache" {
        let name = String(url.path.dropFirst(root.path.count + 1).dropLast(".mustache".count))
        sources[name] = (url.path, try! String(contentsOf: url, encoding: .utf8))
    }
    return try! TemplateSet(sources: sources)
}()

/// Most that one input of `size` bytes may render to: output 100 times the input's size and more is a finding.
private func maxOutputBytes(_ size: Int) -> Int { 100 * size + 1_000_000 }

private func reportOversized(_ what: String, _ bytes: Int, _ size: Int) -> Never {
    FileHandle.standardError.write(Data("FINDING: \(what) rendered \(bytes) bytes from \(size) bytes of input\n".utf8))
    abort()
}

/// The input as Markdown: refused by the standard limits, or rendered to no more than they allow.
private func renderMarkdown(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard MarkdownCheck(limits: .standard).overrun(text) == nil else { return }
    let html = MarkdownRenderer(allowRawHTML: bytes.first.map { $0 & 1 == 1 } ?? false).html(text)
    if html.utf8.count > MarkdownLimits.standard.maxHTMLBytes(forSource: bytes.count) {
        reportOversized("Markdown", html.utf8.count, bytes.count)
    }
}

/// A valid listing of the every-type kind, enriched and rendered as the only listing of a site.
private func renderSite(_ listing: Listing, page: FreePage?, inputSize: Int) {
    // A reference to another listing is refused before rendering when it names none; here there is none.
    guard listing.references.isEmpty else { return }
    let markdown = MarkdownRenderer(allowRawHTML: false)
    let formatter = DisplayFormatter(language: site.language, currency: site.currency)
    let enricher = ListingEnricher(site: site, schema: everyTypeSchema, markdown: markdown, formatter: formatter, references: .none(site: site), images: [:],
        kindsWithPages: [everyTypeSchema.name])
    var pages: [FreePage] = []
    if var page {
        page.html = markdown.html(page.markdown)
        pages.append(page)
    }
    // A derived value past the number limit is a located error here, as in a build: nothing to render.
    guard let catalogue = try? Catalogue(
        site: site, schemas: [everyTypeSchema], listings: ["things": [enricher.enrich(listing)]], pages: pages,
        buildDate: CalendarDate(parsing: "2026-11-23")!, formatter: formatter, locator: .fileOnly)
    else { return }
    let total = Mutex(0)
    SiteRenderer(catalogue: catalogue, templates: templates).render { files in
        total.withLock { total in
            for rendered in files {
                if case .bytes(let contents) = rendered.file.contents { total += contents.count }
            }
        }
    }
    let bytes = total.withLock { $0 }
    if bytes > maxOutputBytes(inputSize) { reportOversized("the site", bytes, inputSize) }
}

func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    renderMarkdown(bytes)
    let (page, _) = decodePage(bytes, file: "fuzz.md", slug: "fuzz")
    let node: YAMLNode?
    do throws(Diagnostic) {
        node = try parseYAML(bytes, file: "fuzz.yaml")
    } catch {
        return 0
    }
    _ = decodeSiteConfig(node, file: "fuzz.yaml")
    let (schema, _) = decodeKindSchema(node, kind: "things", file: "fuzz.yaml", knownKinds: ["things", "owners"], reservedFacetNames: [:])
    if let schema {
        _ = checkDerivedFields([schema])
        // The input is a valid schema: check the input against itself too, to reach the checkers it declares.
        _ = ListingValidator(schema: schema, mediaFiles: ["a.png"]).check(node, file: "fuzz.yaml", slug: "fuzz")
    }
    if let listing = everyTypeValidator.check(node, file: "fuzz.yaml", slug: "fuzz").listing {
        renderSite(listing, page: page, inputSize: size)
    }
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

// Made before fuzzing starts, so LeakSanitizer does not count them against the first input.
_ = everyTypeValidator
_ = templates
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
