import Foundation
import Support

/// Writes a generated catalogue as a Noticeboard site: `content/` with the example site's schemas, the
/// listings and small media files, and the example's `templates/`.
public enum SiteWriter {
    /// `example` is a site root whose `content/schemas/` and `templates/` the generated site reuses. `root` must be
    /// new or an empty folder (`NewFolder`).
    public static func write(_ catalogue: SyntheticCatalogue, to root: String, example: String) throws {
        let fileManager = FileManager.default
        try NewFolder.check(root)
        try fileManager.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        // Only the generated kinds' schemas: a schema of a kind `kinds:` does not name is an error.
        try fileManager.createDirectory(atPath: root + "/content/schemas", withIntermediateDirectories: true)
        for kind in kinds {
            try fileManager.copyItem(atPath: example + "/content/schemas/\(kind).yaml", toPath: root + "/content/schemas/\(kind).yaml")
        }
        try fileManager.copyItem(atPath: example + "/templates", toPath: root + "/templates")
        var files: [(path: String, text: String)] = [("content/site.yaml", siteConfig)]
        files += mediaFiles.map { ("content/media/" + $0.path, $0.text) }
        for (kind, listings) in catalogue.listings {
            files += listings.map { ("content/\(kind)/\($0.slug).yaml", YAMLEmitter.document($0.fields)) }
        }
        try writeFiles(files, under: root)
    }

    /// The kinds a generated site has, in navigation order.
    static let kinds = ["cleaners", "rentals", "owners", "quotes", "reviews"]

    static let siteConfig = """
        title: Noticeboard Bench
        description: A generated catalogue for benchmarks & profiling.
        base_url: https://example.org/catalogue/
        language: en-IE
        currency: EUR
        page_size: 24
        allow_raw_html: false
        kinds: [\(kinds.joined(separator: ", "))]

        """

    /// Small SVG portraits and photos, each a little different so their hashes differ.
    static var mediaFiles: [(path: String, text: String)] {
        let portraits = (1...SyntheticCatalogue.portraitCount).map { number in
            ("cleaners/portrait-\(number).svg", svg(hue: number * 15, label: "C\(number)"))
        }
        let photos = (1...SyntheticCatalogue.photoCount).map { number in
            ("rentals/photo-\(number).svg", svg(hue: number * 15 + 7, label: "R\(number)"))
        }
        return portraits + photos
    }

    static func svg(hue: Int, label: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">\
        <rect width="200" height="200" fill="hsl(\(hue % 360),40%,70%)"/>\
        <text x="100" y="110" font-size="40" text-anchor="middle">\(label)</text></svg>

        """
    }

    /// Writes files across all cores, making their folders first.
    static func writeFiles(_ files: [(path: String, text: String)], under root: String) throws {
        let folders = Set(files.map { (root + "/" + $0.path as NSString).deletingLastPathComponent })
        for folder in folders.sorted() {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        // Plain writes: FileManager.createFile writes through a temporary file, several times slower here.
        let failures = files.parallelMap { file -> String? in
            do {
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: root + "/" + file.path))
                return nil
            } catch {
                return "\(error)"
            }
        }.compactMap { $0 }
        if let failure = failures.first { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: failure]) }
    }
}
