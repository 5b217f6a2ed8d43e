import SiteModel
import Testing

/// Slugs from file names and titles, in ASCII without a transliterator.
@Suite struct SlugTests {
    @Test func asciiSlugsNeedNoTransliterator() {
        #expect(Slug.from(text: "Outdoor & Camping 2") == "outdoor-camping-2")
        #expect(Slug.from(fileName: "Siobhán Ó.yaml") == "siobhan-o")
        #expect(Slug.from(text: "Olena Коваленко") == Slug.from(text: "olena ") + "-kovalenko")
    }
}
