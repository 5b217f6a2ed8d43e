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
    public var sort: [SortKey]
    public var fields: [FieldSchema]
    /// The schema file, relative to the site root.
    public var file: String

    public init(
        name: String, title: String, singular: String, description: String, titleField: String,
        dateField: String?, entriesField: String?, sort: [SortKey], fields: [FieldSchema], file: String
    ) {
        self.name = name
        self.title = title
        self.singular = singular
        self.description = description
        self.titleField = titleField
        self.dateField = dateField
        self.entriesField = entriesField
        self.sort = sort
        self.fields = fields
        self.file = file
    }

    public func field(named name: String) -> FieldSchema? {
        fields.first { $0.name == name }
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
    /// Checked like any other field, then dropped before anything is rendered.
    public var isPrivate: Bool
    /// Lower and upper bounds for int and decimal fields.
    public var minimum: Double?
    public var maximum: Double?
    public var format: DisplayFormat?

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
    }
}

/// How a number is shown to people (JSON always carries the plain number).
public enum DisplayFormat: String, Sendable, CaseIterable {
    /// In the site's currency, e.g. "€18.50".
    case currency
    /// Out of the field's maximum (5 when none), e.g. "4.5 out of 5".
    case rating
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
}
