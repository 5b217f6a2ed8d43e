import OrderedCollections

/// One listing file after validation: public fields only, in schema order.
public struct Listing: Sendable {
    public var kind: String
    public var slug: String
    /// The listing file, relative to the site root.
    public var file: String
    public var fields: OrderedDictionary<String, Value>
    /// References to other listings, kept with their locations so a dangling one can be reported.
    public var references: [Reference]
    /// Files below `content/media/` that the listing's image fields name (never those of private fields).
    public var media: [MediaUse]
    /// Human-readable text for formatted fields (currency, rating), filled in by enrichment.
    public var display: OrderedDictionary<String, String>
    /// Where the listing's own top-level values sit, for errors found after validation (a derived sum past the
    /// limit, two facet values with one URL).
    public var fieldLocations: [String: SourceLocation]

    public init(
        kind: String, slug: String, file: String, fields: OrderedDictionary<String, Value>,
        references: [Reference] = [], media: [MediaUse] = [], display: OrderedDictionary<String, String> = [:],
        fieldLocations: [String: SourceLocation] = [:]
    ) {
        self.kind = kind
        self.slug = slug
        self.file = file
        self.fields = fields
        self.references = references
        self.media = media
        self.display = display
        self.fieldLocations = fieldLocations
    }

    /// Where a field's value sits, or the top of the file for a value the listing does not write (a derived one).
    public func location(of field: String) -> SourceLocation {
        fieldLocations[field] ?? SourceLocation(file: file)
    }

    /// The listing without where its values sit, what it references and the media it names.
    public func withoutSourceDetails() -> Listing {
        Listing(kind: kind, slug: slug, file: file, fields: fields, display: display)
    }

    /// The listing's page, relative to the output root: `cleaners/ana/`.
    public var outputPath: String { "\(kind)/\(slug)/" }
}

public struct Reference: Sendable, Hashable {
    public var kind: String
    public var slug: String
    /// Where in the listing the value sits: `owner` or `crew.2.owner`.
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
