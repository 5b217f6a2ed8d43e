import Foundation
import PathJournal
import SiteModel
import Support

/// A file written part by part as it is made (`OutputFile.Contents.streamed`), on the thread that makes
/// it: to a temporary name beside its path, digested as it goes, and compared as it goes with the file at
/// that path in the output folder. A file with the same bytes as that one is linked from it, as `StagedOutput.writeFile` does
/// for a file held whole; any other is renamed into place.
enum StreamedFile {
    /// The path a file being written under a temporary name (`x.json.noticeboard-part`, or its `-link`) will
    /// have; any other path as it is.
    static func finalPath(of path: String) -> String {
        for suffix in [temporarySuffix, temporarySuffix + "-link"] where path.hasSuffix(suffix) { return String(path.dropLast(suffix.count)) }
        return path
    }

    private static let temporarySuffix = ".noticeboard-part"

    /// Writes what `write` makes at `path` in `root`; returns its digest, and whether the file at `path` in
    /// `source` had its bytes and was linked.
    static func write(
        _ write: (inout ByteStream) -> Void, at path: String, in root: HeldFolder, sameAs source: HeldFolder?
    ) throws(WriteError) -> (digest: FileDigest, linked: Bool) {
        let temporary = path + temporarySuffix, linked = temporary + "-link"
        let comparison: ExistingBytes? = if let source { try ExistingBytes(path, in: source) } else { nil }
        let digest = SHA256.Parts()
        let size = try writeParts(write, to: temporary, in: root) { part in
            digest.add(part)
            comparison?.compare(part)
        }
        let made = FileDigest(size: size, sha256: digest.digest())
        _ = try root.unlink(linked)
        if let source, comparison?.isSame == true, try root.link(linked, to: path, in: source) {
            _ = try root.unlink(temporary)
            try replace(path, with: linked, in: root)
            return (made, true)
        }
        try replace(path, with: temporary, in: root)
        return (made, false)
    }

    /// Writes what `write` makes into a new file at `temporary` in `root`, part by part, handing each part to
    /// `each` too; returns the file's size. A write that fails removes the file.
    static func writeParts(
        _ write: (inout ByteStream) -> Void, to temporary: String, in root: HeldFolder, each: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws(WriteError) -> Int {
        _ = try root.unlink(temporary)
        let descriptor = try root.makeFile(temporary)
        do throws(WriteError) {
            return try writeParts(write, into: descriptor, named: root.name + "/" + temporary, each: each)
        } catch {
            _ = try? root.unlink(temporary)
            throw error
        }
    }

    /// The same by name, for a file outside the staging folder (the build's record).
    static func writeParts(
        _ write: (inout ByteStream) -> Void, to temporary: String, each: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }
    ) throws(WriteError) -> Int {
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: temporary) }
        do throws(WriteError) {
            return try writeParts(write, into: descriptor, named: temporary, each: each)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes what `write` makes into the open file `descriptor` (`name` in messages), then closes it.
    private static func writeParts(
        _ write: (inout ByteStream) -> Void, into descriptor: Int32, named name: String, each: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws(WriteError) -> Int {
        var failure: WriteError?
        var stream = ByteStream { part in
            guard failure == nil else { return }
            part.withUnsafeBytes { buffer in
                each(buffer)
                if !Descriptor.writeAll(buffer, to: descriptor) { failure = WriteError(path: name) }
            }
        }
        write(&stream)
        stream.finish()
        close(descriptor)
        if let failure { throw failure }
        return stream.count
    }

    /// Renames `temporary` to `path` in `root`, over a file or folder the previous site had there.
    private static func replace(_ path: String, with temporary: String, in root: HeldFolder) throws(WriteError) {
        if try root.rename(temporary, to: path) {
            // A rename between two links to one file does nothing: `path` was already the output's file.
            _ = try root.unlink(temporary)
            return
        }
        guard errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST else { throw failed(path, removing: temporary, in: root) }
        try StagedOutput.remove(path, in: root)
        guard try root.rename(temporary, to: path) else { throw failed(path, removing: temporary, in: root) }
    }

    /// The error of a rename to `path` that failed, once `temporary` is removed.
    private static func failed(_ path: String, removing temporary: String, in root: HeldFolder) -> WriteError {
        let error = WriteError(path: root.name + "/" + path)
        _ = try? root.unlink(temporary)
        return error
    }
}

/// An existing file read alongside a stream of bytes: whether the stream turns out to hold the same bytes.
private final class ExistingBytes {
    private let descriptor: Int32
    private var same: Bool
    private var read: [UInt8] = []

    /// The file at `path` in `folder`; none (never the same) when there is none.
    init(_ path: String, in folder: HeldFolder) throws(WriteError) {
        descriptor = try folder.open(path, O_RDONLY | O_NONBLOCK)
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
