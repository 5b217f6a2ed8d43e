import LocatedYAML
import Markdown
import SiteModel

/// Checks listing files of one kind against its schema.
public struct ListingValidator: Sendable {
    public let schema: KindSchema
    /// Files below `content/media/`, relative to it.
    public let mediaFiles: Set<String>
    /// The site's limits on what a Markdown field may render to.
    public let markdown: MarkdownLimits

    public init(schema: KindSchema, mediaFiles: Set<String>, markdown: MarkdownLimits = .standard) {
        self.schema = schema
        self.mediaFiles = mediaFiles
        self.markdown = markdown
    }

    /// The listing's public fields, or nil when it has errors; the diagnostics either way.
    public func validate(_ root: YAMLNode?, file: String, slug: String) -> (Listing?, [Diagnostic]) {
        guard let root else {
            return (nil, [.error(at: SourceLocation(file: file), "file holds no listing; a \(schema.singular.lowercased()) is a mapping of fields such as \(schema.titleField): …")])
        }
        var problems = Problems(file: file)
        var found = Findings()
        var checker = ValueChecker(mediaFiles: mediaFiles, references: .record, markdown: MarkdownCheck(limits: markdown))
        checker.facetFields = Set(schema.facets.filter { !schema.facetIsOverEntries($0) })
        checker.entryFacetFields = Set(schema.facets.filter { schema.facetIsOverEntries($0) })
        checker.entriesField = schema.entriesField
        let fields = checker
            .checkFields(root, fields: schema.fields, path: [], problems: &problems, found: &found)
        guard let fields, !problems.hasErrors else { return (nil, problems.list) }
        return (Listing(kind: schema.name, slug: slug, file: file, fields: fields, references: found.references, media: found.media,
            fieldLocations: found.locations), problems.list)
    }
}
