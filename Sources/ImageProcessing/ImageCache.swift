import Foundation
import SiteModel

/// Processed images kept in the site's git-ignored `.noticeboard-cache/images/`, one folder per source
/// content and settings (the key), so an unchanged image is never decoded again, whichever file names it.
/// A folder holds the variants and an `entry` file describing them; it is written under a temporary name
/// and renamed into place, so a reader (another build running at once) sees it whole or not at all.
struct ImageCache: Sendable {
    let folder: String

    /// What a cache entry records: the source's header facts and its variants, by file name in the folder.
    struct Entry {
        var source: SourceImage
        var variants: [Variant]
    }

    struct Variant {
        var width: Int
        var height: Int
        var format: ImageFormat
        /// The file's name in the entry's folder.
        var file: String
    }

    private static let header = "noticeboard-image-cache 1"

    func path(_ key: String) -> String { folder + "/" + key }

    func load(_ key: String) -> Entry? {
        guard let data = FileManager.default.contents(atPath: path(key) + "/entry") else { return nil }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n")[...]
        guard lines.popFirst() == Substring(Self.header), let sourceLine = lines.popFirst() else { return nil }
        let sourceFields = sourceLine.split(separator: " ")
        guard sourceFields.count == 4, sourceFields[0] == "source", let format = ImageFormat(rawValue: String(sourceFields[1])),
            let width = Int(sourceFields[2]), let height = Int(sourceFields[3])
        else { return nil }
        var entry = Entry(source: SourceImage(format: format, width: width, height: height), variants: [])
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count == 5, fields[0] == "variant", let width = Int(fields[1]), let height = Int(fields[2]),
                let format = ImageFormat(rawValue: String(fields[3])), FileManager.default.fileExists(atPath: path(key) + "/" + fields[4])
            else { return nil }
            entry.variants.append(Variant(width: width, height: height, format: format, file: String(fields[4])))
        }
        return entry
    }

    /// Stores the variants under `key`; an entry another build stored first is kept.
    func store(_ key: String, source: SourceImage, variants: [EncodedVariant]) throws(ImageProblem) -> Entry {
        var entry = Entry(source: source, variants: [])
        var text = Self.header + "\nsource \(source.format.rawValue) \(source.width) \(source.height)\n"
        let temporary = folder + "/.tmp-\(getpid())-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
            for variant in variants {
                let file = "\(variant.width).\(variant.format.fileExtension)"
                try Data(variant.bytes).write(to: URL(fileURLWithPath: temporary + "/" + file))
                entry.variants.append(Variant(width: variant.width, height: variant.height, format: variant.format, file: file))
                text += "variant \(variant.width) \(variant.height) \(variant.format.rawValue) \(file)\n"
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary + "/entry"))
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .cacheUnwritable(error.localizedDescription)
        }
        if rename(temporary, path(key)) != 0 {
            // Another build stored the same key meanwhile (its entry holds the same bytes), or a damaged entry
            // is in the way: that one is replaced.
            if load(key) == nil {
                try? FileManager.default.removeItem(atPath: path(key))
                if rename(temporary, path(key)) == 0 { return entry }
            }
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            guard load(key) != nil else { throw .cacheUnwritable(reason) }
        }
        return entry
    }

    /// Notes that a build used the entry (its folder's modification time), so pruning keeps it.
    func markUsed(_ key: String) {
        utimes(path(key), nil)
    }

    /// An entry's folder (a key: 64 hex digits) or one being written (`.tmp-…`): pruning removes nothing else.
    static func isEntryName(_ name: String) -> Bool {
        name.hasPrefix(".tmp-") || (name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    }

    /// Removes the entries not in `keeping` that no build has used for an hour: a build running at the same
    /// time from other content (the preview server's) may still need a recent one.
    func prune(keeping keys: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let cutoff = Date().addingTimeInterval(-3600)
        for name in names where !keys.contains(name) && Self.isEntryName(name) {
            let modified = (try? FileManager.default.attributesOfItem(atPath: path(name))[.modificationDate]) as? Date
            if let modified, modified < cutoff { try? FileManager.default.removeItem(atPath: path(name)) }
        }
    }
}
