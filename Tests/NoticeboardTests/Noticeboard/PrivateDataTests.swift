import Foundation
import LocatedYAML
import SchemaValidation
import SiteModel
import Testing

/// Private fields are checked and never published. Every private field of every listing of the example site
/// gets a unique canary, and not one output byte, nor any output path, may hold one: pages, JSON, media, and
/// whatever else the build writes (search index, feeds, sitemap, manifest), since the whole of public/ is read.
@Suite struct PrivateDataTests {
    @Test func noCanaryInAnyPrivateFieldReachesTheOutput() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        // Built once before the canaries go in, so the build that must keep them out is an incremental one.
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        var canaries = Canaries()
        let siteConfig = try parseYAML(Array(TestSupport.read(site + "/content/site.yaml").utf8), file: "site.yaml")
        let kinds = try #require(decodeSiteConfig(siteConfig, file: "site.yaml").0).kinds
        var privateFields = 0
        var privateValues = 0
        for kind in kinds {
            let file = "content/schemas/\(kind).yaml"
            let node = try parseYAML(Array(TestSupport.read(site + "/" + file).utf8), file: file)
            let schema = try #require(decodeKindSchema(node, kind: kind, file: file, knownKinds: kinds, reservedFacetNames: [:]).0)
            let hidden = schema.fields.filter(\.isPrivate)
            privateFields += hidden.count
            let folder = site + "/content/" + kind + "/"
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".yaml") {
                privateValues += hidden.count
                try Self.replaceTopLevelFields(in: folder + name, adding: hidden.map(\.name)) { field in
                    hidden.first { $0.name == field }.flatMap { canaries.value(for: $0) }
                }
            }
        }
        #expect(privateFields >= 5, "the example site should have private fields in several kinds")
        #expect(canaries.planted.count >= privateValues && privateValues >= 50, "a private field was left without a canary")

        let result = try TestSupport.runCLI(["build"], in: site)
        #expect(result.status == 0, "\(result.stderr)")
        let output = TestSupport.tree(site + "/public")
        #expect(output.count > 40)
        for (path, data) in output {
            for canary in canaries.planted {
                #expect(data.range(of: Data(canary.utf8)) == nil, "\(canary) is in public/\(path)")
                #expect(!path.contains(canary), "\(canary) names public/\(path)")
            }
        }
    }

    /// Unique values that pass each type's check, and the strings to look for in the output.
    struct Canaries {
        var planted: [String] = []

        mutating func value(for field: FieldSchema) -> String? {
            let number = planted.count + 1
            switch field.type {
            case .string, .markdown:
                planted.append("CANARY-\(number)-TEXT")
                return planted.last
            case .email:
                planted.append("canary\(number)x@example.net")
                return planted.last
            case .phone:
                let digits = String(9_100_000 + number)
                planted.append(digits)
                return "+353 1 \(digits)"
            default:
                // The private-canary fixture covers images and nested fields; this one covers the example's types.
                Issue.record("no canary for the private \(field.type.name) field '\(field.name)'; teach Canaries one")
                return nil
            }
        }
    }

    /// Replaces the value of each top-level field `replacement` gives one for (adding the fields in `adding`
    /// that the file lacks), keeping every other line as it is.
    static func replaceTopLevelFields(in path: String, adding: [String], replacement: (String) -> String?) throws {
        var lines = TestSupport.read(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard case .mapping(let pairs)? = try parseYAML(Array(TestSupport.read(path).utf8), file: path)?.content else { return }
        let starts = pairs.map { $0.key.line - 1 } + [lines.count]
        var present = Set<String>()
        // From the bottom up, so earlier line numbers stay right.
        for index in pairs.indices.reversed() {
            present.insert(pairs[index].name)
            guard let value = replacement(pairs[index].name) else { continue }
            lines.replaceSubrange(starts[index]..<starts[index + 1], with: ["\(pairs[index].name): \(quoted(value))"])
        }
        for name in adding where !present.contains(name) {
            if let value = replacement(name) { lines.append("\(name): \(quoted(value))") }
        }
        TestSupport.write(lines.joined(separator: "\n") + "\n", to: path)
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `field: value` lines of every YAML file in a content folder, by file name.
    static func values(_ site: String, _ kind: String) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: site + "/content/" + kind) where file.hasSuffix(".yaml") {
            var fields: [String: String] = [:]
            for line in TestSupport.read(site + "/content/\(kind)/" + file).split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
            }
            result[String(file.dropLast(5))] = fields
        }
        return result
    }

    @Test func noPrivateValueOfAnyKindIsPublished() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site, now: TestSupport.now)
        // Every private field of every schema, and the values the example's listings give them.
        var secrets: [String] = []
        for schemaFile in try FileManager.default.contentsOfDirectory(atPath: site + "/content/schemas") where schemaFile.hasSuffix(".yaml") {
            let kind = String(schemaFile.dropLast(5))
            let privateFields = TestSupport.read(site + "/content/schemas/" + schemaFile).split(separator: "\n")
                .filter { $0.contains("private: true") }.compactMap { $0.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) }
            for (_, listing) in try Self.values(site, kind) {
                secrets += privateFields.compactMap { listing[$0] }.filter { $0.count > 5 }
            }
        }
        #expect(secrets.count > 40, "found \(secrets.count) private values")
        for secret in secrets {
            for (path, data) in files { #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) found in \(path)") }
        }
    }
}
