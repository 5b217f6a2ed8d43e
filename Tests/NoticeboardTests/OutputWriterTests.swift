import Foundation
import OutputWriter
import SiteModel
import Testing

@Suite struct OutputWriterTests {
    @Test func writesTheTreeAndReplacesThePreviousOne() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        _ = try output.write([OutputFile(path: "old/index.html", text: "old")])
        let summary = try output.write([OutputFile(path: "index.html", text: "home"), OutputFile(path: "a/b/c.json", text: "{}")])
        #expect(summary.files == 2 && summary.bytes == 6)
        #expect(TestSupport.tree(folder + "/public").keys.sorted() == ["a/b/c.json", "index.html"])
        // Only the output folder is left: no staging folder or old copy beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["public"])
    }

    @Test func failedWriteLeavesThePreviousSiteUntouched() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        _ = try output.write([OutputFile(path: "index.html", text: "previous")])
        #expect(throws: BuildFailure.self) {
            try output.write([OutputFile(path: "index.html", text: "new"), OutputFile(path: "x.css", contents: .copy(from: folder + "/absent.css"))])
        }
        #expect(TestSupport.tree(folder + "/public") == ["index.html": Data("previous".utf8)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["public"])
    }

    @Test func pathsThatEscapeTheOutputAreRefused() {
        for path in ["../evil.html", "/etc/x", "a/../../b", "a//b", ""] {
            #expect(throws: BuildFailure.self) {
                try StagedOutput(outputPath: NSTemporaryDirectory() + "never-written").write([OutputFile(path: path, text: "x")])
            }
        }
    }
}
