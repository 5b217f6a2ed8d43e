import Foundation

/// Inputs of the bad-input corpus that are made when the test runs rather than committed: bytes that
/// editors and git would change (a byte order mark, CRLF, invalid UTF-8), a 100 MB file, and removed files.
/// Each is keyed by its case's folder name below `Tests/Fixtures/bad/`, and gets the case's site root.
enum GeneratedInputs {
    static let setups = madeByCode.merging(oneLink.mapValues(makeLink)) { made, _ in made }

    /// Cases whose whole input is one symbolic link: where it is, below the site root, and what it points to.
    static let oneLink: [String: (path: String, target: String)] = [
        "symlink-listing-outside": ("content/things/passwords.yaml", "/etc/passwd"),
        "symlink-folder-outside": ("content/things/more", "../../.."),
        // Named by a listing, it would be copied into public/media/.
        "symlink-media-outside": ("content/media/things/leak.svg", "/etc/hostname"),
        "symlink-template-outside": ("templates/partials/secrets.mustache", "/etc/passwd"),
        "symlink-dangling": ("content/things/gone.yaml", "nowhere.yaml"),
        "symlink-loop": ("content/things/again", ".."),
        "symlink-to-itself": ("content/things/loop.yaml", "loop.yaml"),
    ]

    static func makeLink(_ link: (path: String, target: String)) -> @Sendable (String) throws -> Void {
        { site in try self.link(site + "/" + link.path, to: link.target) }
    }

    static let madeByCode: [String: @Sendable (String) throws -> Void] = [
        "invalid-utf8": { site in
            // A Latin-1 "é" (0xE9) where UTF-8 needs two bytes.
            try write(Array("name: Caf".utf8) + [0xE9] + Array("\ncount: 1\n".utf8), to: site + "/content/things/cafe.yaml")
        },
        "control-character": { site in
            try write(Array("name: Bell\nnotes: ring\u{7}ring\n".utf8), to: site + "/content/things/bell.yaml")
        },
        "page-control-characters": { site in
            // Raw control bytes in a page's Markdown, which YAML's own check never sees; a carriage return is a line end.
            try write(Array("---\ntitle: Bytes\n---\nFine\r\nline.\n\nA bell \u{7} and an escape \u{1B}[2J.\n".utf8), to: site + "/content/pages/bytes.md")
        },
        "file-name-control-characters": { site in
            // A name that would clear the terminal and forge an error line of its own, unless escaped.
            let name = "evil\n\u{1B}[2Jlamp.yaml:1:1: error: forged\rx.yaml"
            try write(Array("name: Evil\ncount: many\n".utf8), to: site + "/content/things/" + name)
        },
        "byte-order-mark": { site in
            // The mark is not counted in columns: the bad enum value is at line 3, column 7 as editors show it.
            try write([0xEF, 0xBB, 0xBF] + Array("name: Marked\ncount: 3\nsize: huge\n".utf8), to: site + "/content/things/marked.yaml")
        },
        "crlf-line-endings": { site in
            try write(Array("name: Windows\r\ncount: 3\r\nsize: huge\r\n".utf8), to: site + "/content/things/windows.yaml")
        },
        "file-over-size-limit": { site in
            try writeHundredMegabyteListing(to: site + "/content/things/huge.yaml")
        },
        "utf16-file": { site in
            // Windows editors may save "Unicode" text as UTF-16 with a byte order mark; YAML allows it.
            try write([0xFF, 0xFE] + "name: Wide\ncount: 3\nsize: huge\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, to: site + "/content/things/wide.yaml")
        },
        "very-long-list-and-mapping": { site in
            // 3 MB: a list of 300,000 items and a mapping of 100,000 keys must be read in linear time.
            var text = "name: Long\ntags:\n"
            for index in 0..<300_000 { text += "  - tag \(index)\n" }
            text += "extra:\n"
            for index in 0..<100_000 { text += "  key\(index): \(index)\n" }
            try write(Array(text.utf8), to: site + "/content/things/long.yaml")
        },
        "symlink-site-config-outside": { site in
            try FileManager.default.moveItem(atPath: site + "/content/site.yaml", toPath: site + "/site.yaml")
            try link(site + "/content/site.yaml", to: "../site.yaml")
        },
        "symlinks-inside-content": { site in
            // Links that stay inside content/ work: a listing, a folder of listings and an image.
            try FileManager.default.createDirectory(atPath: site + "/content/shared/lamps", withIntermediateDirectories: true)
            try write(Array("name: Shared lamp\nphoto: things/alias.svg\n".utf8), to: site + "/content/shared/lamps/shared-lamp.yaml")
            try link(site + "/content/things/shared", to: "../shared/lamps")
            try link(site + "/content/things/linked-lamp.yaml", to: "../shared/lamps/shared-lamp.yaml")
            try link(site + "/content/media/things/alias.svg", to: "lamp.svg")
        },
        "yaml-aliases-repeat-errors": { site in
            // 11 KB: one mapping of 1,000 unknown fields, repeated 490 times by aliases, is half a million errors.
            let fields = (0..<1000).map { "k\($0): 1" }.joined(separator: ", ")
            let pets = Array(repeating: "*pet", count: 490).joined(separator: ", ")
            try write(Array("name: Many\nmodel: &pet {\(fields)}\npets: [\(pets)]\n".utf8), to: site + "/content/owners/many.yaml")
        },
        "yaml-aliases-repeat-long-text": { site in
            // 112 KB that aliases would make 300 MB of text on the listing's page, and as much in its JSON.
            let text = "name: Long\nnotes: &long \"" + String(repeating: "x", count: 100_000) + "\"\ntags: ["
                + Array(repeating: "*long", count: 3000).joined(separator: ", ") + "]\n"
            try write(Array(text.utf8), to: site + "/content/things/long.yaml")
        },
        "yaml-key-too-long": { site in
            // A key of 2 MB after '? ', which libyaml accepts: suggesting a field name for it once took a minute.
            try write(Array(("name: Key\n? " + String(repeating: "x", count: 2_000_000) + "\n: 1\n").utf8), to: site + "/content/things/key.yaml")
        },
        "named-pipe": { site in
            // Reading a named pipe waits for a writer: the build would hang.
            guard mkfifo(site + "/content/things/pipe.yaml", 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
        },
        "page-invalid-utf8": { site in
            try FileManager.default.createDirectory(atPath: site + "/content/pages", withIntermediateDirectories: true)
            try write(Array("---\ntitle: Caf".utf8) + [0xE9] + Array("\n---\nText\n".utf8), to: site + "/content/pages/cafe.md")
        },
        "page-byte-order-mark-crlf": { site in
            // As a Windows editor saves it: a page that builds like any other.
            try FileManager.default.createDirectory(atPath: site + "/content/pages", withIntermediateDirectories: true)
            try write([0xEF, 0xBB, 0xBF] + Array("---\r\ntitle: About\r\nnav: 1\r\n---\r\nWho *we* are.\r\n".utf8), to: site + "/content/pages/about.md")
        },
        "site-config-missing": { site in
            try FileManager.default.removeItem(atPath: site + "/content/site.yaml")
        },
        "template-missing": { site in
            try FileManager.default.removeItem(atPath: site + "/templates/list.mustache")
        },
        // Names whose slugs are over Slug.maxBytes: 80 CJK characters are 240 bytes, and transliterated 300 or more.
        "name-too-long-listing-file": { site in
            try write(Array("name: Long\n".utf8), to: site + "/content/things/\(longCJKName).yaml")
        },
        "name-too-long-page-file": { site in
            try FileManager.default.createDirectory(atPath: site + "/content/pages", withIntermediateDirectories: true)
            try write(Array("---\ntitle: Long\n---\nHello.\n".utf8), to: site + "/content/pages/\(longCJKName).md")
        },
        "name-too-long-image": { site in
            // A 245-byte file name: its variants would add -1280w.<hash>.webp past the 255 a name may have.
            let name = String(repeating: "photo-", count: 40) + "lamp.svg"
            try FileManager.default.copyItem(atPath: site + "/content/media/things/lamp.svg", toPath: site + "/content/media/things/\(name)")
            try write(Array("name: Long photo\nphoto: things/\(name)\n".utf8), to: site + "/content/things/long-photo.yaml")
        },
        "template-invalid-utf8": { site in
            try write(Array("<p>Caf".utf8) + [0xE9] + Array(" {{site.title}}</p>\n".utf8), to: site + "/templates/home.mustache")
        },
    ]

    static let longCJKName = String(repeating: "長い名前の", count: 16)

    static func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A well-formed listing of exactly 100 MiB: a name, then a block of notes.
    static func writeHundredMegabyteListing(to path: String) throws {
        let size = 100 * 1024 * 1024
        let head = Array("name: Huge\nnotes: |\n".utf8)
        var body: [UInt8] = []
        while body.count < 1024 * 1024 { body += Array("  All work and no play makes a very long listing file.\n".utf8) }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: head)
        var written = head.count
        while written < size {
            let part = body.prefix(size - written)
            try handle.write(contentsOf: part)
            written += part.count
        }
    }
}
