import CRenameExchange
import Foundation
import SiteModel

/// Writes a whole site into a staging folder beside the output folder, then swaps the two in one
/// atomic rename, so readers (and a build killed half-way) only ever see the old or the new site.
/// The staging folder has a fixed name, `.<output>.staging`: the caller holds `OutputLock`, so no other
/// build uses it, and whatever a killed build left there is removed before the next one writes.
public struct StagedOutput: Sendable {
    /// The output folder, e.g. `public`.
    public let outputPath: String

    public init(outputPath: String) {
        self.outputPath = outputPath.count > 1 && outputPath.hasSuffix("/") ? String(outputPath.dropLast()) : outputPath
    }

    public struct Summary: Sendable {
        public var files: Int
        /// Files written anew; `.previous` files are hard links to the last build's, so they keep their
        /// modification time and deploys that compare times send only what changed.
        public var written: Int
        public var bytes: Int
    }

    public func write(_ files: [OutputFile]) throws(BuildFailure) -> Summary {
        for file in files where !Self.isSafeRelativePath(file.path) {
            throw BuildFailure([.error("refusing to write '\(file.path)': output paths must stay inside \(outputPath)/")])
        }
        let staging = stagingPath
        try? FileManager.default.removeItem(atPath: staging)
        try? FileManager.default.createDirectory(atPath: Self.parentFolder(of: outputPath), withIntermediateDirectories: true)
        do throws(WriteError) {
            try Self.makeStagingFolder(staging)
            let (written, bytes) = try writeTree(files, into: staging)
            try swapIn(staging)
            return Summary(files: files.count, written: written, bytes: bytes)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw BuildFailure([.error("cannot write the site to \(outputPath)/: \(error.message)")])
        }
    }

    /// Beside the output folder: a rename only swaps folders on one file system.
    var stagingPath: String {
        let name = (outputPath as NSString).lastPathComponent
        return (Self.parentFolder(of: outputPath) as NSString).appendingPathComponent(".\(name).staging")
    }

    /// The folder that holds `path`: `site` for `site/public`, `.` for `public`.
    static func parentFolder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Output paths are made by the pipeline from validated slugs; this is the last guard that none escapes.
    static func isSafeRelativePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.utf8.contains(0)
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    /// The first thing written: when this fails, the output's folder cannot be written at all.
    private static func makeStagingFolder(_ path: String) throws(WriteError) {
        guard mkdir(path, 0o755) == 0 else {
            let parent = parentFolder(of: path)
            throw WriteError(message: "cannot create a folder in \(parent) (\(String(cString: strerror(errno))))")
        }
    }

    /// The number of files written anew and the bytes of all files.
    private func writeTree(_ files: [OutputFile], into root: String) throws(WriteError) -> (Int, Int) {
        var folders = Set<Substring>()
        for file in files {
            var path = file.path[...]
            while let slash = path.lastIndex(of: "/") {
                path = path[..<slash]
                if !folders.insert(path).inserted { break }
            }
        }
        for folder in folders.sorted(by: { $0.count < $1.count }) { try Self.makeDirectory(root + "/" + folder) }
        let results = files.parallelMap { file -> Result<Int, WriteError> in
            do throws(WriteError) {
                return .success(try writeFile(file, at: root + "/" + file.path))
            } catch {
                return .failure(error)
            }
        }
        var total = 0
        for result in results { total += try result.get() }
        let written = files.filter { if case .previous = $0.contents { return false } else { return true } }.count
        return (written, total)
    }

    private func swapIn(_ staging: String) throws(WriteError) {
        var info = stat()
        if lstat(outputPath, &info) != 0 {
            guard errno == ENOENT else { throw WriteError(path: outputPath) }
            guard rename(staging, outputPath) == 0 else { throw WriteError(path: outputPath) }
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw WriteError(message: "\(outputPath) exists and is not a folder")
        }
        guard nb_rename_exchange(staging, outputPath) == 0 else { throw WriteError(path: outputPath) }
        // The staging path now holds the previous site.
        try? FileManager.default.removeItem(atPath: staging)
    }

    private static func makeDirectory(_ path: String) throws(WriteError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw WriteError(path: path) }
    }

    private func writeFile(_ file: OutputFile, at path: String) throws(WriteError) -> Int {
        switch file.contents {
        case .previous:
            let existing = outputPath + "/" + file.path
            var info = stat()
            guard stat(existing, &info) == 0 else { throw WriteError(path: existing) }
            if link(existing, path) != 0 {
                // Another file system, or one without hard links: copy the bytes instead.
                guard let data = FileManager.default.contents(atPath: existing) else { throw WriteError(path: existing) }
                try Self.writeBytes([UInt8](data), at: path)
            }
            return Int(info.st_size)
        case .bytes(let bytes):
            try Self.writeBytes(bytes, at: path)
            return bytes.count
        case .copy(let source):
            guard let data = FileManager.default.contents(atPath: source) else { throw WriteError(message: "cannot read \(source)") }
            let bytes = [UInt8](data)
            try Self.writeBytes(bytes, at: path)
            return bytes.count
        }
    }

    private static func writeBytes(_ bytes: [UInt8], at path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path) }
        defer { close(descriptor) }
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            var written = 0
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                written += result
            }
            return false
        }
        if failed { throw WriteError(path: path) }
    }
}

struct WriteError: Error {
    let message: String

    init(message: String) {
        self.message = message
    }

    /// From `errno`, naming the path that failed.
    init(path: String) {
        message = "\(path): \(String(cString: strerror(errno)))"
    }
}
