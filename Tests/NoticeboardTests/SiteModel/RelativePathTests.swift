import SiteModel
import Testing

/// The segments a relative path may not have, as the writer and the media check refuse them.
@Suite struct RelativePathTests {
    @Test(arguments: ["", "/", "/a", "a/", "a//b", ".", "..", "./a", "a/.", "a/../b", "../a", "a/.."])
    func aSegmentThatNamesNoFileIsFound(path: String) {
        #expect(RelativePath.hasEmptyOrDotSegment(path))
    }

    @Test(arguments: ["a", "a/b/index.html", "...", ".hidden", "a/..b", "a/b..", "a./b", "é/ñ.png"])
    func namedSegmentsPass(path: String) {
        #expect(!RelativePath.hasEmptyOrDotSegment(path))
    }
}
