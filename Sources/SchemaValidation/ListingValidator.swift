import LocatedYAML
import Markdown
import SiteModel

/// Checks listing files of one kind against its schema.
public struct ListingValidator: Sendable {
    public let schema: KindSchema
    /// Files below `content/media/`, relative to it.
    public let mediaFiles: Set<String>
    /// The site's limits on what a Markdown field may render to, and the path its links must stay within.
    public let markdown: MarkdownCheck

    public init(schema: KindSchema, mediaFiles: Set<String>, markdown: MarkdownLimits = .standard, sitePath: String = "/", allowRawHTML: Bool = false) {
        self.schema = schema
        self.mediaFiles = mediaFiles
        self.markdown = MarkdownCheck(limits: markdown, sitePath: sitePath, allowRawHTML: allowRawHTML)
    }

    /// What checking a listing file found: the listing, unless it has errors; every problem; and the listings
    /// it refers to, even when it has errors, so that a reference to nothing is reported in the same run.
    public struct Checked: Sendable {
        public var listing: Listing?
        public var problems: [Diagnostic]
        public var references: [Reference]

        public init(listing: Listing?, problems: [Diagnostic], references: [Reference]) {
            self.listing = listing
            self.problems = problems
            self.references = references
        }
    }

    /// The listing's public fields, or nil when it has errors; the diagnostics and references either way. `slug`
    /// is the file name's; a `slug:` line in the file takes its place (see `declaredSlug`).
    public func check(_ root: YAMLNode?, file: String, slug: String) -> Checked {
        guard var root else {
            let empty = "file holds no listing; a \(schema.singular.lowercased()) is a mapping of fields such as \(schema.titleField): …"
            return Checked(listing: nil, problems: [.error(at: SourceLocation(file: file), empty)], references: [])
        }
        var problems = Problems(file: file)
        var slug = slug
        if case .mapping(var pairs) = root.content, let index = pairs.firstIndex(where: { $0.name == "slug" }) {
            let node = pairs.remove(at: index).value
            root.content = .mapping(pairs)
            slug = declaredSlug(node, problems: &problems) ?? slug
        }
        var found = Findings()
        var checker = ValueChecker(mediaFiles: mediaFiles, markdown: markdown)
        checker.facetFields = Set(schema.facets.filter { !schema.facetIsOverEntries($0) })
        checker.entryFacetFields = Set(schema.facets.filter { schema.facetIsOverEntries($0) })
        checker.entriesField = schema.entriesField
        let fields = checker
            .checkFields(root, fields: schema.fields, path: [], problems: &problems, found: &found)
        guard let fields, !problems.hasErrors else { return Checked(listing: nil, problems: problems.list, references: found.references) }
        let listing = Listing(kind: schema.name, slug: slug, file: file, fields: fields, references: found.references, media: found.media)
        return Checked(listing: listing, problems: problems.list, references: found.references)
    }

    /// Where the file whose YAML is `root` writes `field`'s value, as validation read it: the `slug:` line's value,
    /// or a public top-level field's; nil for any other (a private field's place is not given either).
    public func location(of field: String, in root: YAMLNode?, file: String) -> SourceLocation? {
        guard field == "slug" || schema.field(named: field).map({ !$0.isPrivate }) == true,
            case .mapping(let pairs)? = root?.content, let value = pairs.first(where: { $0.name == field })?.value
        else { return nil }
        return SourceLocation(file: file, line: value.line, column: value.column)
    }

    /// A `slug:` line, as exported catalogues (Hugo's) carry: the listing's URL segment in place of the file
    /// name's, made by the same rules (`Łódź Flat` → `lodz-flat`), and held to the same length limit.
    private func declaredSlug(_ node: YAMLNode, problems: inout Problems) -> String? {
        guard case .scalar(let text, _) = node.content, !node.isNull else {
            problems.error(node, "'slug' must be text, the listing's web address such as ana-murphy, not \(node.summary)")
            return nil
        }
        let slug = Slug.from(text: text)
        if slug.isEmpty {
            problems.error(node, "'slug' \(node.summary) has no letters or digits to make the listing's web address from")
            return nil
        }
        if let tooLong = Slug.tooLong("'slug'", slug: slug) {
            problems.error(node, tooLong)
            return nil
        }
        return slug
    }
}
