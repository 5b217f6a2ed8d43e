/// A free Markdown page such as `content/pages/about.md`, published at `/about/`.
public struct FreePage: Sendable {
    public var slug: String
    /// The page file, relative to the site root.
    public var file: String
    public var title: String
    public var description: String
    /// Its place in the navigation, after the kinds; nil keeps it out of the navigation.
    public var navigationOrder: Int?
    /// The Markdown body; enrichment fills in `html`.
    public var markdown: String
    public var html: String

    public init(slug: String, file: String, title: String, description: String, navigationOrder: Int?, markdown: String) {
        self.slug = slug
        self.file = file
        self.title = title
        self.description = description
        self.navigationOrder = navigationOrder
        self.markdown = markdown
        self.html = ""
    }

    public var outputPath: String { "\(slug)/" }
}
