import Foundation
import OutputWriter
import Rendering
import SiteModel
import Testing

/// A document made as it is written (`OutputFile.Contents.streamed`) goes to disk part by part: the file
/// holds every part in order, its digest is the whole file's, and a file with the bytes the output folder
/// already has is linked from it, not written, as a file held whole is.
@Suite struct StreamedFileTests {
    /// A document of `count` bytes whose last byte is `last`, made in items of 1,000 bytes.
    private static func document(_ count: Int, last: UInt8 = 0x7A) -> @Sendable (inout ByteStream) -> Void {
        { stream in
            var made = 0
            while made < count {
                let item = (0..<min(1_000, count - made)).map { UInt8(ascii: "a") + UInt8((made + $0) % 26) }
                stream.append(contentsOf: item)
                made += item.count
            }
            stream.append(last)
        }
    }

    @Test func aStreamHandsOnItsBytesInPartsAndInOrder() {
        var parts: [[UInt8]] = []
        var stream = ByteStream(partSize: 4_096) { parts.append($0) }
        Self.document(10_000)(&stream)
        stream.finish()
        #expect(parts.count == 3 && parts.dropLast().allSatisfy { $0.count >= 4_096 } && stream.count == 10_001)
        #expect(parts.flatMap { $0 } == ByteStream.collect(Self.document(10_000)))
    }

    @Test func aStreamedFileIsWrittenWholeAndLinkedWhenItsBytesAreTheOutputs() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        func inode(_ path: String) -> ino_t { TestSupport.inode(folder + "/" + path) }
        func build(_ document: @escaping @Sendable (inout ByteStream) -> Void, staged: [String: FileDigest]? = nil) throws -> (FileDigest?, StagedOutput.Summary) {
            let staging = try output.begin(staged: staged.map { WrittenDigests($0) }, previousIsKnown: true)
            let digest = staging.stream(document, at: "api/big.json")
            staging.add([(OutputFile(path: "index.html", text: "home"), nil)])
            return (digest, try staging.finish(wanted: ["api/big.json", "index.html"].contains))
        }
        // Three parts and a bit.
        let size = 3 * ByteStream.defaultPartSize + 5, first = Self.document(size), second = Self.document(size, last: 0x21)
        let (digest, summary) = try build(first)
        let bytes = ByteStream.collect(first)
        #expect(digest == Manifest.digest(bytes) && summary.written == 2 && summary.bytes == bytes.count + 4)
        #expect(TestSupport.tree(folder + "/public") == ["api/big.json": Data(bytes), "index.html": Data("home".utf8)])
        let written = inode("public/api/big.json")

        // index.html, held whole and given no digest, is written every time.
        let (again, same) = try build(first)
        #expect(again == digest && inode("public/api/big.json") == written && same.written == 1, "the same bytes: linked, not written")

        let (other, changed) = try build(second)
        #expect(other == Manifest.digest(ByteStream.collect(second)) && other != digest && changed.written == 2)
        #expect(inode("public/api/big.json") != written && TestSupport.tree(folder + "/public")["api/big.json"] == Data(ByteStream.collect(second)))
        #expect(TestSupport.tree(folder + "/.public.staging")["api/big.json"] == Data(bytes), "the site replaced is unchanged")

        // The staging folder, holding the first document, brought up to date with it: the output had the second.
        let staged = ["api/big.json": digest!, "index.html": Manifest.digest(Array("home".utf8))]
        let (third, updated) = try build(first, staged: staged)
        #expect(third == digest && updated.written == 2)
        #expect(TestSupport.tree(folder + "/public") == ["api/big.json": Data(bytes), "index.html": Data("home".utf8)])
        #expect(TestSupport.tree(folder + "/.public.staging")["api/big.json"] == Data(ByteStream.collect(second)))

        // Twice more with the same bytes: the staging folder's file becomes the output's, then already is it.
        let home = ["index.html": Manifest.digest(Array("home".utf8))]
        for stagedDigest in [Manifest.digest(ByteStream.collect(second)), digest!] {
            let (same, kept) = try build(first, staged: home.merging(["api/big.json": stagedDigest]) { $1 })
            #expect(same == digest && kept.written == 1)
            #expect(TestSupport.tree(folder + "/public") == ["api/big.json": Data(bytes), "index.html": Data("home".utf8)], "no part is left")
        }
        #expect(inode("public/api/big.json") == inode(".public.staging/api/big.json"))
    }

    @Test func aStreamedFileOutsideTheOutputIsRefused() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let staging = try StagedOutput(outputPath: folder + "/public").begin()
        #expect(staging.stream(Self.document(10), at: "../outside.json") == nil)
        #expect(throws: BuildFailure.self) { try staging.finish { _ in true } }
        #expect(!FileManager.default.fileExists(atPath: folder + "/outside.json") && !FileManager.default.fileExists(atPath: folder + "/public"))
    }
}
