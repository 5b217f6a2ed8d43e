import Foundation
import SiteModel

/// Reads a site's files: everything the build consumes comes through here, named relative to the site root.
public struct SiteFiles: Sendable {
    /// The site root as the user gave it; diagnostics name files relative to it.
    public let root: String
    /// Files larger than this are refused before they are read.
    public let maxFileBytes: Int

    public init(root: String, maxFileBytes: Int = 10 * 1024 * 1024) {
        self.root = root
        self.maxFileBytes = maxFileBytes
    }

    public func absolute(_ relative: String) -> String {
        root == "." ? relative : root + "/" + relative
    }

    public func exists(_ relative: String) -> Bool {
        var info = stat()
        return stat(absolute(relative), &info) == 0
    }

    public func isDirectory(_ relative: String) -> Bool {
        var info = stat()
        return stat(absolute(relative), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads a whole file, refusing it past `maxFileBytes` without reading it.
    public func read(_ relative: String) throws(Diagnostic) -> [UInt8] {
        let location = SourceLocation(file: relative)
        let descriptor = open(absolute(relative), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .error(at: location, "cannot read file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .error(at: location, "cannot read file: \(String(cString: strerror(errno)))")
        }
        let size = Int(info.st_size)
        guard size <= maxFileBytes else {
            throw .error(
                at: location,
                "the file is \(size) bytes, over the limit of \(maxFileBytes) bytes for one input file; split it up, or raise the limit with --max-file-bytes")
        }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = Foundation.read(descriptor, buffer.baseAddress! + count, size - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }  // the file shrank while we read it
                count += got
            }
        }
        guard failure == 0 else { throw .error(at: location, "cannot read file: \(String(cString: strerror(failure)))") }
        return bytes
    }

    /// Files below a folder, relative to the site root, sorted; hidden names are skipped.
    /// `extensions` keeps only names ending in one of them (without the dot).
    public func files(under folder: String, extensions: Set<String>? = nil) -> [String] {
        guard let names = FileManager.default.subpaths(atPath: absolute(folder)) else { return [] }
        var found: [String] = []
        for name in names {
            if name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            if let extensions {
                guard let dot = name.lastIndex(of: "."), extensions.contains(String(name[name.index(after: dot)...]).lowercased())
                else { continue }
            }
            let relative = folder + "/" + name
            if isDirectory(relative) { continue }
            found.append(relative)
        }
        return found.sorted()
    }
}
