/// What a kind's schema file declares: the fields of its listings and how the kind is shown.
public struct KindSchema: Sendable {
    /// The kind's name, also its folder under `content/` and its URL segment.
    public var name: String
    public var title: String
    public var singular: String
    public var description: String
    /// The field whose value names a listing (its page title and link text).
    public var titleField: String
    /// The date field that orders listings by newness, if any.
    public var dateField: String?
    /// For a collection kind (many entries per file): the list field that holds the entries.
    public var entriesField: String?
    /// The order of a collection kind's entries on facet pages.
    public var entrySort: [SortKey]
    public var sort: [SortKey]
    public var fields: [FieldSchema]
    /// Fields computed from other listings (counts, averages, lists of referencing listings).
    public var derived: [DerivedField]
    /// Fields whose values get browsable pages at `/<kind>/<facet>/<value>/`.
    public var facets: [String]
    /// False for kinds that only feed other pages and JSON (reviews): no index or listing pages.
    public var hasPages: Bool
    /// False (`browse: false`) for a kind with pages that is not for visitors to browse (an app's message
    /// templates): see `isBrowsed`.
    public var browsable: Bool
    /// Publishes one entry (or listing) per day at `/api/<kind>/daily/YYYY-MM-DD.json`.
    public var daily: DailyPick?
    public var feeds: [FeedFormat]
    /// Latitude and longitude fields; listings with both are written to `/api/<kind>.geojson`.
    public var geo: GeoFields?
    /// A number field the search page can filter by range (a price).
    public var searchRange: String?
    /// The schema.org type and properties of the JSON-LD on the kind's listing pages (`schema_org`).
    public var schemaOrg: SchemaOrgMapping?
    /// The fields its cards show, when the schema declares them (`card:`); see `cardFields`.
    public var card: CardFields?
    /// The schema file, relative to the site root.
    public var file: String

    public init(
        name: String, title: String, singular: String, description: String, titleField: String,
        dateField: String? = nil, entriesField: String? = nil, entrySort: [SortKey] = [], sort: [SortKey] = [], fields: [FieldSchema],
        derived: [DerivedField] = [], facets: [String] = [], hasPages: Bool = true, browsable: Bool = true, daily: DailyPick? = nil,
        feeds: [FeedFormat] = [], geo: GeoFields? = nil, searchRange: String? = nil, schemaOrg: SchemaOrgMapping? = nil, card: CardFields? = nil, file: String
    ) {
        self.name = name
        self.title = title
        self.singular = singular
        self.description = description
        self.titleField = titleField
        self.dateField = dateField
        self.entriesField = entriesField
        self.entrySort = entrySort
        self.sort = sort
        self.fields = fields
        self.derived = derived
        self.facets = facets
        self.hasPages = hasPages
        self.browsable = browsable
        self.daily = daily
        self.feeds = feeds
        self.geo = geo
        self.searchRange = searchRange
        self.schemaOrg = schemaOrg
        self.card = card
        self.file = file
    }

    /// Whether visitors are offered the kind to browse: the home page's kinds, the navigation's by default, the
    /// newest listings and search. Its pages are written either way.
    public var isBrowsed: Bool { hasPages && browsable }

    public func field(named name: String) -> FieldSchema? {
        fields.first { $0.name == name }
    }

    /// The label of the declared field `name`, else of the derived one; nil when the kind has neither.
    public func label(of name: String) -> String? {
        field(named: name)?.label ?? derived.first { $0.name == name }?.label
    }

    /// The fields of each entry of a collection kind; empty for other kinds.
    public var entryFields: [FieldSchema] {
        guard let entriesField, case .list(let item)? = field(named: entriesField)?.type, case .object(let fields) = item.type else { return [] }
        return fields
    }

    /// Where the facet `name` reads its values; nil when neither the kind nor its entries have that field.
    public func facetSource(_ name: String) -> FacetSource? {
        FacetSource(facet: name, isOwnField: { field(named: $0) != nil }, isEntryField: { name in entryFields.contains { $0.name == name } })
    }

    /// A facet names a field of the listing or, in a collection kind, of its entries.
    public func facetField(named name: String) -> FieldSchema? {
        switch facetSource(name) {
        case .listing: field(named: name)
        case .entries: entryFields.first { $0.name == name }
        case nil: nil
        }
    }

    /// True when the facet gathers entries rather than whole listings.
    public func facetIsOverEntries(_ name: String) -> Bool {
        facetSource(name) == .entries
    }
}

/// Where a facet named in `facets:` reads its values: the kind's own field, or, only when the kind has no field
/// by that name, the field of its collection's entries. Every reading of a facet's name goes through `init`, from
/// the schema's YAML to the validated kind, so the rule is written here alone.
public enum FacetSource: Sendable, Equatable {
    case listing
    case entries

    public init?(facet name: String, isOwnField: (String) -> Bool, isEntryField: (String) -> Bool) {
        if isOwnField(name) {
            self = .listing
        } else if isEntryField(name) {
            self = .entries
        } else {
            return nil
        }
    }
}

/// A field whose value is computed at build time. Gathering operations read the listings of another kind
/// that refer to this one (a cleaner's `rating` is the average `stars` of the reviews whose `cleaner` is that
/// cleaner); the others read the listing's own fields, the build date, or a listing it refers to.
public struct DerivedField: Sendable {
    public enum Operation: Sendable, Hashable {
        // Over the listings of `from` whose reference field `via` points at this listing:
        case count
        case average(field: String, scale: Int)
        /// `(priorWeight × priorMean + sum) / (priorWeight + count)`: an average pulled towards `priorMean` as if
        /// `priorWeight` more values of it were there, so few values rank below many (left out with none).
        case bayesianAverage(field: String, scale: Int, priorWeight: Double, priorMean: Double)
        case sum(field: String)
        case minimum(field: String)
        case maximum(field: String)
        /// The referring listings themselves, in the given order (their kind's order when empty).
        case list(sort: [SortKey])
        /// `field` summed per value of `group`, largest total first: `[{group, total}]`.
        case sumBy(group: String, field: String)
        // On the listing itself:
        /// Whole days from a date field to the build date.
        case daysSince(field: String)
        /// `numerator / denominator`, rounded to `scale` fraction digits; left out when dividing by zero.
        case ratio(numerator: String, denominator: String, scale: Int)
        /// A number field times `factor`, rounded to `scale` fraction digits: a rental's price for a weekend.
        case times(field: String, factor: Double, scale: Int)
        /// True when a number field is at least `threshold`.
        case atLeast(field: String, threshold: Double)
        /// A field of the listing that this listing's reference field `via` points at.
        case lookup(field: String)

        public var isList: Bool {
            if case .list = self { return true }
            return false
        }

        /// Gathering operations read another kind's listings through its reference field `via`.
        public var gathers: Bool {
            switch self {
            case .count, .average, .bayesianAverage, .sum, .minimum, .maximum, .list, .sumBy: return true
            case .daysSince, .ratio, .times, .atLeast, .lookup: return false
            }
        }
    }

    public var name: String
    public var label: String
    public var operation: Operation
    /// For gathering operations: the kind whose listings are gathered.
    public var from: String?
    /// For gathering operations: their reference field that must point at this listing.
    /// For `lookup`: this kind's reference field.
    public var via: String?
    public var format: DisplayFormat?
    /// Upper bound shown by the rating format ("out of 5").
    public var maximum: Double?
    /// Where the schema declares it, for errors found once every kind is known.
    public var location: SourceLocation

    public init(
        name: String, label: String, operation: Operation, from: String?, via: String?, format: DisplayFormat? = nil,
        maximum: Double? = nil, location: SourceLocation
    ) {
        self.location = location
        self.name = name
        self.label = label
        self.operation = operation
        self.from = from
        self.via = via
        self.format = format
        self.maximum = maximum
    }
}

public struct DailyPick: Sendable {
    /// How many days from the build date get a file; the two days before get one too (`documentDays`).
    public var days: Int

    public init(days: Int) {
        self.days = days
    }

    /// The most `days` a schema may ask for: ten years.
    public static let mostDays = 3660
    /// Days before the build date that a kind's archive of picks keeps (`<kind>/daily/`).
    public static let archiveDays = 30

    /// The days whose pick has a document: `days` from the build date, and the two days before, one of which
    /// may still be today for visitors west of the site's time zone (their page asks for their own date's
    /// pick): time zones span 26 hours, UTC−12 to UTC+14.
    public func documentDays(from buildDate: CalendarDate) -> (first: CalendarDate, count: Int) {
        (buildDate.adding(days: -2), days + 2)
    }

    /// The build dates whose picks, up to `mostDays` ahead and `archiveDays` back, all have four-digit years.
    public static let buildDates: ClosedRange<CalendarDate> =
        CalendarDate(year: 1, month: 1, day: 1)!.adding(days: archiveDays)...CalendarDate(year: 9999, month: 12, day: 31)!.adding(days: 1 - mostDays)
}

public enum FeedFormat: String, Sendable, CaseIterable {
    /// JSON Feed 1.1 at `/feeds/<kind>.json`.
    case json
    /// Atom 1.0 at `/feeds/<kind>.atom`.
    case atom
}

public struct GeoFields: Sendable {
    public var latitude: String
    public var longitude: String

    public init(latitude: String, longitude: String) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One ordering criterion: a field, ascending unless written `-field`.
public struct SortKey: Sendable, Hashable {
    public var field: String
    public var descending: Bool

    public init(field: String, descending: Bool) {
        self.field = field
        self.descending = descending
    }
}

public struct FieldSchema: Sendable {
    public var name: String
    public var type: FieldType
    public var label: String
    public var required: Bool
    /// Used when an optional field is absent.
    public var defaultValue: Value?
    /// The listings `defaultValue` refers to, located in the schema, for the site to check that they exist.
    public var defaultReferences: [Reference] = []
    /// Checked like any other field, then dropped before anything is rendered.
    public var isPrivate: Bool
    /// Lower and upper bounds for int and decimal fields.
    public var minimum: Double?
    public var maximum: Double?
    public var format: DisplayFormat?
    /// For text an app fills in (`Hi {{contact}}`): the only `{{names}}` the text may use.
    public var placeholders: [String]?

    public init(
        name: String, type: FieldType, label: String, required: Bool = false, defaultValue: Value? = nil,
        isPrivate: Bool = false, minimum: Double? = nil, maximum: Double? = nil, format: DisplayFormat? = nil
    ) {
        self.name = name
        self.type = type
        self.label = label
        self.required = required
        self.defaultValue = defaultValue
        self.isPrivate = isPrivate
        self.minimum = minimum
        self.maximum = maximum
        self.format = format
        self.placeholders = nil
    }
}

extension FieldSchema {
    /// The references of this field's default and of the defaults of the fields within it, at any depth; those
    /// of a private field, or of one within it, are private too.
    public var defaultReferencesWithin: [Reference] { defaultReferences(withinPrivate: false) }

    private func defaultReferences(withinPrivate: Bool) -> [Reference] {
        let hidden = withinPrivate || isPrivate
        let own = defaultReferences.map { reference in
            var reference = reference
            reference.isPrivate = reference.isPrivate || hidden
            return reference
        }
        switch type {
        case .list(let item): return own + item.defaultReferences(withinPrivate: hidden)
        case .object(let fields): return own + fields.flatMap { $0.defaultReferences(withinPrivate: hidden) }
        default: return own
        }
    }
}

/// How a number is shown to people (JSON always carries the plain number).
public enum DisplayFormat: String, Sendable, CaseIterable {
    /// In the site's currency, e.g. "€18.50".
    case currency
    /// Out of the field's maximum (`defaultRatingMaximum` when none), e.g. "4.5 out of 5".
    case rating

    public static let defaultRatingMaximum: Double = 5
}

public indirect enum FieldType: Sendable {
    case string
    case markdown
    case int
    /// Stored with `scale` fraction digits (default 2) and written to JSON with exactly that many.
    case decimal(scale: Int)
    case bool
    case date
    case url
    case email
    case phone
    /// A path below `content/media/`.
    case image
    case enumeration([String])
    case list(of: FieldSchema)
    case object([FieldSchema])
    /// The slug of a listing of another kind.
    case reference(kind: String)

    /// How the type is named in schema files and messages.
    public var name: String {
        switch self {
        case .string: return "string"
        case .markdown: return "markdown"
        case .int: return "int"
        case .decimal: return "decimal"
        case .bool: return "bool"
        case .date: return "date"
        case .url: return "url"
        case .email: return "email"
        case .phone: return "phone"
        case .image: return "image"
        case .enumeration: return "enum"
        case .list: return "list"
        case .object: return "object"
        case .reference: return "reference"
        }
    }

    /// An image, or a list of images.
    public var holdsImages: Bool {
        switch self {
        case .image: return true
        case .list(let item): if case .image = item.type { return true } else { return false }
        default: return false
        }
    }

    /// The fields of an object, or of each object of a list of objects; nil for any other type.
    public var objectFields: [FieldSchema]? {
        switch self {
        case .object(let subfields): return subfields
        case .list(let item): if case .object(let subfields) = item.type { return subfields } else { return nil }
        default: return nil
        }
    }
}
