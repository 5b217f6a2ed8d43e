import OrderedCollections

/// One listing file after validation: public fields only, in schema order.
///
/// Its values live in one shared box, copied on write: a listing is copied into every list, group of pages
/// and document that shows it, and copying the box costs one reference count where copying eleven values
/// cost eleven (3 % of an L build's CPU went to copying and destroying listings).
public struct Listing: Sendable {
    private var values: Values

    public var kind: String {
        get { values.kind }
        _modify { yield &uniqueValues().kind }
    }
    public var slug: String {
        get { values.slug }
        _modify { yield &uniqueValues().slug }
    }
    /// The listing file, relative to the site root.
    public var file: String {
        get { values.file }
        _modify { yield &uniqueValues().file }
    }
    public var fields: OrderedDictionary<String, Value> {
        get { values.fields }
        _modify { yield &uniqueValues().fields }
    }
    /// References to other listings, kept with their locations so a dangling one can be reported.
    public var references: [Reference] {
        get { values.references }
        _modify { yield &uniqueValues().references }
    }
    /// Files below `content/media/` that the listing's image fields name (never those of private fields).
    public var media: [MediaUse] {
        get { values.media }
        _modify { yield &uniqueValues().media }
    }
    /// Human-readable text for formatted fields (currency, rating), filled in by enrichment.
    public var display: OrderedDictionary<String, String> {
        get { values.display }
        _modify { yield &uniqueValues().display }
    }
    public init(
        kind: String, slug: String, file: String, fields: OrderedDictionary<String, Value>,
        references: [Reference] = [], media: [MediaUse] = [], display: OrderedDictionary<String, String> = [:]
    ) {
        values = Values(kind: kind, slug: slug, file: file, fields: fields, references: references, media: media, display: display)
    }

    /// The box, made this listing's own before it is changed.
    private mutating func uniqueValues() -> Values {
        if !isKnownUniquelyReferenced(&values) { values = values.copy() }
        return values
    }

    /// Changed only through `uniqueValues()`, when no other listing shares it: so sharing it across threads
    /// is as safe as sharing an array.
    private final class Values: @unchecked Sendable {
        var kind: String
        var slug: String
        var file: String
        var fields: OrderedDictionary<String, Value>
        var references: [Reference]
        var media: [MediaUse]
        var display: OrderedDictionary<String, String>

        init(
            kind: String, slug: String, file: String, fields: OrderedDictionary<String, Value>, references: [Reference], media: [MediaUse],
            display: OrderedDictionary<String, String>
        ) {
            self.kind = kind
            self.slug = slug
            self.file = file
            self.fields = fields
            self.references = references
            self.media = media
            self.display = display
        }

        func copy() -> Values {
            Values(kind: kind, slug: slug, file: file, fields: fields, references: references, media: media, display: display)
        }
    }

    /// The listing without what it references, the media it names and the file it was read from (`file` is
    /// empty): what only reading, validating and indexing report problems at.
    public func withoutSourceDetails() -> Listing {
        Listing(kind: kind, slug: slug, file: "", fields: fields, display: display)
    }

    /// The listing's page, relative to the output root: `cleaners/ana/`.
    public var outputPath: String { "\(kind)/\(slug)/" }
}

public struct Reference: Sendable, Hashable {
    public var kind: String
    public var slug: String
    /// Where in the listing (or in a schema's default) the value sits: `owner` or `crew.2.owner`.
    public var fieldPath: [String]
    public var location: SourceLocation
    /// The field is private: messages name it but never quote its value.
    public var isPrivate: Bool

    public init(kind: String, slug: String, fieldPath: [String], location: SourceLocation, isPrivate: Bool = false) {
        self.kind = kind
        self.slug = slug
        self.fieldPath = fieldPath
        self.location = location
        self.isPrivate = isPrivate
    }
}

/// An image field's value: a file below `content/media/`, kept with the field's location so a bad image is
/// reported where the listing names it.
public struct MediaUse: Sendable, Hashable {
    /// Below `content/media/`: `rentals/kayak.jpg`.
    public var path: String
    /// The field as messages name it: `photo` or `photos[2]`.
    public var field: String
    public var location: SourceLocation

    public init(path: String, field: String, location: SourceLocation) {
        self.path = path
        self.field = field
        self.location = location
    }
}
