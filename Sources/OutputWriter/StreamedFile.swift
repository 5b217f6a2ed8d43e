import Foundation
import PathJournal
import SiteModel
import Support

/// A file written part by part as it is made (`OutputFile.Contents.streamed`), on the thread that makes
/// it: to a temporary name beside its path, digested as it goes, and compared as it goes with the file at
/// `existing`. A file with the same bytes as that one is linked from it, as `StagedOutput.writeFile` does
/// for a file held whole; any other is renamed into place.
enum StreamedFile {
    /// The path a file being written under a temporary name (`x.json.noticeboard-part`, or its `-link`) will
    /// have; any other path as it is.
    static func finalPath(of path: String) -> String {
        for suffix in [temporarySuffix, temporarySuffix + "-link"] where path.hasSuffix(suffix) { return String(path.dropLast(suffix.count)) }
        return path
    }

    private static let temporarySuffix = ".noticeboard-part"

    /// Writes what `write` makes at `path`; returns its digest, and whether `existing` had its bytes and was linked.
    static func write(
        _ write: (inout ByteStream) -> Void, at path: String, sameAs existing: String?
    ) throws(WriteError) -> (digest: FileDigest, linked: Bool) {
        let temporary = path + temporarySuffix
        let comparison = existing.map(ExistingBytes.init)
        let digest = SHA256.Parts()
        let size = try writeParts(write, to: temporary) { part in
            digest.add(part)
            comparison?.compare(part)
        }
        let made = FileDigest(size: size, sha256: digest.digest())
        unlink(temporary + "-link")
        if let existing, comparison?.isSame == true, link(existing, temporary + "-link") == 0 {
            unlink(temporary)
            try replace(path, with: temporary + "-link")
            return (made, true)
        }
        try replace(path, with: temporary)
        return (made, false)
    }

    /// Writes what `write` makes into a new file at `temporary`, part by part, handing each part to `each`
    /// too; returns the file's size. A write that fails removes the file.
    static func writeParts(
        _ write: (inout ByteStream) -> Void, to temporary: String, each: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }
    ) throws(WriteError) -> Int {
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: temporary) }
        var failure: WriteError?
        var stream = ByteStream { part in
            guard failure == nil else { return }
            part.withUnsafeBytes { buffer in
                each(buffer)
                if !Descriptor.writeAll(buffer, to: descriptor) { failure = WriteError(path: temporary) }
            }
        }
        write(&stream)
        stream.finish()
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw failure
        }
        return stream.count
    }

    /// Renames `temporary` to `path`, over a file or folder the previous site had there.
    private static func replace(_ path: String, with temporary: String) throws(WriteError) {
        if rename(temporary, path) == 0 {
            // A rename between two links to one file does nothing: `path` was already the output's file.
            unlink(temporary)
            return
        }
        guard errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST else {
            unlink(temporary)
            throw WriteError(path: path)
        }
        try StagedOutput.remove(path)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw WriteError(path: path)
        }
    }
}

/// An existing file read alongside a stream of bytes: whether the stream turns out to hold the same bytes.
private final class ExistingBytes {
    private let descriptor: Int32
    private var same: Bool
    private var read: [UInt8] = []

    init(_ path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        same = descriptor >= 0
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads as many bytes as `part` holds and compares them.
    func compare(_ part: UnsafeRawBufferPointer) {
        guard same, !part.isEmpty else { return }
        if read.count < part.count { read = [UInt8](repeating: 0, count: part.count) }
        let count = read.withUnsafeMutableBytes { readAll(into: $0.baseAddress!, count: part.count) }
        same = count == part.count && read.withUnsafeBytes { memcmp($0.baseAddress!, part.baseAddress!, part.count) == 0 }
    }

    /// True when every part compared was the same and the file has nothing after them.
    var isSame: Bool {
        var byte: UInt8 = 0
        return same && readAll(into: &byte, count: 1) == 0
    }

    private func readAll(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        var done = 0
        while done < count {
            let result = Foundation.read(descriptor, buffer + done, count - done)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { break }
            done += result
        }
        return done
    }
}
