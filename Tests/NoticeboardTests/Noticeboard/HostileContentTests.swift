import Foundation
import LocatedYAML
import SchemaValidation
import SiteModel
import Testing

/// Script injection in every field of every kind the example site declares, plus a `hostile` kind with a field
/// of every type and facets, a free page, the site's title and schema titles, labels and enum values. The built
/// pages, and the HTML the feeds carry, are parsed the way browsers and feed readers parse them (html5lib,
/// Tests/Tools/html_safety_report.py) and must hold nothing that runs but what the theme itself puts there: no
/// script element, event attribute, javascript:, vbscript: or non-image data: link that came from content. The
/// hostile text must be there, as text; the XML must parse; the JSON must carry the text unchanged.
@Suite struct HostileContentTests {
    /// Breaks out of element text, both kinds of quoted attribute, script elements and CDATA sections.
    static let payload = #"<script>alert(1)</script> " onerror="alert(2) ' onmouseover='alert(3) </script><script>alert(4)</script> javascript:alert(5) ]]><![CDATA[<script>alert(6)</script> <img src=x onerror=alert(7)> {{site.title}} &lt;b&gt;"#

    /// Every way Markdown can carry a link, an image or raw HTML with a script URL.
    static let markdown = Self.payload + """


        [a](javascript:alert(11)) [b](JAVASCRIPT:alert(12)) [c](vbscript:msgbox(13)) [d](data:text/html;base64,PHNjcmlwdD4=)
        ![e](data:image/png;base64,iVBORw0KGgo=) ![f](javascript:alert(14)) <javascript:alert(15)> [g](&#106;avascript:alert(16))
        [h](java&#x09;script:alert(17)) [i]( javascript:alert(18)) [j][ref] [k](file:///etc/passwd) [l](data:image/svg+xml,<svg onload=alert(19)>)
        <a href="javascript:alert(20)">m</a> <img src=x onerror=alert(21)> <script>alert(22)</script> <svg onload=alert(23)>
        <iframe src="javascript:alert(24)"></iframe> <style>body{}</style> <meta http-equiv="refresh" content="0;url=javascript:alert(25)">

        [ref]: javascript:alert(26)
        """

    /// Image files whose names are themselves injections, valid on Linux.
    static let images = [#"hostile/x" onerror="alert(31).svg"#, "hostile/javascript:alert(32).svg"]

    @Test func hostileTextIsOnlyEverText() throws {
        // What runs in the example site before the hostile content goes in is the theme's own (the search
        // page's script). The hostile build is then an incremental one over it, as an edit would be.
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let plain = try TestSupport.runCLI(["build", "--quiet"], in: site)
        try #require(plain.status == 0, "\(plain.stderr)")
        let themeOwn = Set(try Self.report(site + "/public").executable.map { $0[1] })
        #expect(
            themeOwn.allSatisfy { $0.hasPrefix("<script ") && $0.contains("/assets/") && $0.hasSuffix(">") },
            "the theme should run only scripts of its own assets, with no inline code: \(themeOwn)")

        let schemas = try Self.inject(into: site)
        let result = try TestSupport.runCLI(["build", "--quiet"], in: site)
        try #require(result.status == 0, "\(result.stderr)")

        let report = try Self.report(site + "/public")
        #expect(report.pages > 40)
        #expect(report.executable.filter { !themeOwn.contains($0[1]) } == [])
        #expect(report.malformed == [])
        let text = report.text
        #expect(text["index.html"]?.contains(Self.payload) == true, "the site title is not on the home page as text")
        #expect(text["notice/index.html"]?.contains(Self.payload) == true, "the free page's title is not on it as text")
        for schema in schemas where schema.hasPages {
            #expect(text["\(schema.name)/hostile/index.html"]?.contains(Self.payload) == true, "no hostile text on the \(schema.name) page")
            #expect(text["\(schema.name)/index.html"]?.contains(Self.payload) == true, "no hostile text on the \(schema.name) index")
        }
        #expect(text["feeds/rentals.atom"]?.contains(Self.payload) == true, "no hostile text in the Atom feed")
        #expect(text.keys.contains { $0.hasPrefix("hostile/size/") && $0 != "hostile/size/plain/index.html" }, "no facet page for the hostile value")

        // Every JSON file parses, and the hostile strings come out exactly as they went in.
        var strings = Set<String>()
        for (path, data) in TestSupport.tree(site + "/public") where path.hasSuffix(".json") {
            let value = try JSONSerialization.jsonObject(with: data)
            Self.collectStrings(value, into: &strings)
        }
        #expect(strings.contains(Self.payload) && strings.contains(Self.markdown))
        #expect(Self.images.allSatisfy(strings.contains))
        for schema in schemas {
            #expect(
                FileManager.default.fileExists(atPath: site + "/public/api/\(schema.name)/hostile.json"),
                "no JSON for the hostile \(schema.name) listing")
        }
    }

    /// Writes the hostile site over a copy of the example: the site's title and description, each schema's
    /// title, singular and description, a `hostile` kind with hostile labels, enum values and facets, a free
    /// page, and in every kind a listing `hostile.yaml` with hostile text in each field that takes text.
    /// Returns the schemas of all kinds.
    static func inject(into site: String) throws -> [KindSchema] {
        let quoted = try String(decoding: JSONSerialization.data(withJSONObject: payload, options: .fragmentsAllowed), as: UTF8.self)
        func replaceTopLevel(_ keys: [String], in file: String) {
            let lines = TestSupport.read(file).split(separator: "\n", omittingEmptySubsequences: false).map { line in
                keys.contains { line.hasPrefix($0 + ":") } ? String(line.prefix { $0 != ":" }) + ": " + quoted : String(line)
            }
            TestSupport.write(lines.joined(separator: "\n"), to: file)
        }
        let configFile = site + "/content/site.yaml"
        let config = try #require(decodeSiteConfig(try parseYAML(Array(TestSupport.read(configFile).utf8), file: configFile), file: configFile).0)
        let kinds = config.kinds + ["hostile"]
        replaceTopLevel(["title", "description"], in: configFile)
        TestSupport.write(TestSupport.read(configFile).replacing(#/kinds: \[(.*)\]/#) { "kinds: [\($0.1), hostile]" }, to: configFile)
        for kind in config.kinds {
            replaceTopLevel(["title", "singular", "description"], in: site + "/content/schemas/\(kind).yaml")
        }
        try write([
            "title": payload, "singular": payload, "description": payload, "title_field": "name",
            "facets": ["size", "tags"],
            "fields": [
                "name": ["type": "string", "required": true, "label": payload],
                "notes": ["type": "markdown", "label": payload],
                "count": ["type": "int", "format": "rating", "maximum": 10, "label": payload],
                "price": ["type": "decimal", "format": "currency", "label": payload],
                "open": ["type": "bool", "label": payload],
                "added": ["type": "date", "label": payload],
                "website": ["type": "url", "label": payload],
                "photo": ["type": "image", "label": payload],
                "photos": ["type": "list", "of": "image", "label": payload],
                "size": ["type": "enum", "values": [payload, "plain"], "label": payload],
                "tags": ["type": "list", "of": "string", "label": payload],
                "address": ["type": "object", "label": payload, "fields": ["town": ["type": "string", "label": payload]]],
                "owner": ["type": "reference", "to": "owners", "label": payload],
                "secret": ["type": "string", "private": true],
            ],
        ], to: site + "/content/schemas/hostile.yaml")
        for image in images { TestSupport.write("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", to: site + "/content/media/" + image) }
        TestSupport.write("---\ntitle: \(quoted)\ndescription: \(quoted)\n---\n\(markdown)\n", to: site + "/content/pages/notice.md")

        var schemas: [KindSchema] = []
        for kind in kinds {
            let file = "content/schemas/\(kind).yaml"
            let node = try parseYAML(Array(TestSupport.read(site + "/" + file).utf8), file: file)
            let schema = try #require(decodeKindSchema(node, kind: kind, file: file, knownKinds: kinds, reservedFacetNames: [:]).0)
            try write(Dictionary(uniqueKeysWithValues: schema.fields.map { ($0.name, value(for: $0)) }), to: site + "/content/\(kind)/hostile.yaml")
            schemas.append(schema)
        }
        return schemas
    }

    /// A valid value for the field, hostile wherever the field takes text.
    static func value(for field: FieldSchema) -> Any {
        switch field.type {
        case .string, .markdown:
            if field.isPrivate { return "private text" }
            let text: String
            if case .markdown = field.type { text = markdown } else { text = payload }
            // Text an app fills in may only use its own placeholders.
            guard let placeholder = field.placeholders?.first else { return text }
            return text.replacingOccurrences(of: "{{site.title}}", with: "{{\(placeholder)}}")
        case .int: return Int(max(field.minimum ?? 3, min(3, field.maximum ?? 3)))
        case .decimal: return max(field.minimum ?? 1.5, min(1.5, field.maximum ?? 1.5))
        case .bool: return true
        case .date: return "2026-01-01"
        case .url: return "https://example.org/search?q='onmouseover='alert(41)"
        case .email: return "hostile@example.org"
        case .phone: return "+353 1 555 0199"
        case .image: return images[0]
        case .enumeration(let values): return values[0]
        case .list(let item):
            if case .image = item.type { return images }
            if case .enumeration(let values) = item.type { return Array(values.prefix(2)) }
            // Two texts, not one twice: a facet's list names each value once.
            let first = value(for: item)
            return [first, (first as? String).map { $0 + " (2)" } ?? first]
        case .object(let fields): return Dictionary(uniqueKeysWithValues: fields.map { ($0.name, value(for: $0)) })
        case .reference: return "hostile"
        }
    }

    /// JSON is YAML, so listings and schemas are written as JSON.
    static func write(_ object: Any, to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        TestSupport.write(String(decoding: data, as: UTF8.self), to: path)
    }

    static func collectStrings(_ value: Any, into strings: inout Set<String>) {
        switch value {
        case let text as String: strings.insert(text)
        case let list as [Any]: list.forEach { collectStrings($0, into: &strings) }
        case let object as [String: Any]: object.values.forEach { collectStrings($0, into: &strings) }
        default: break
        }
    }

    struct SafetyReport: Decodable {
        let pages: Int
        /// `[where, what]`: each construct that could run script.
        let executable: [[String]]
        let malformed: [String]
        let text: [String: String]
    }

    /// Debian's python3 with python3-html5lib, which `make setup` installs.
    static func report(_ folder: String) throws -> SafetyReport {
        let result = try TestSupport.run("/usr/bin/python3", [TestSupport.repository + "/Tests/Tools/html_safety_report.py", folder])
        #expect(result.status == 0, "html_safety_report.py failed; is python3-html5lib installed (make setup)? \(result.stderr)")
        return try JSONDecoder().decode(SafetyReport.self, from: Data(result.stdout.utf8))
    }
}
