import SiteLoader
import SiteValidation
import SiteModel

/// `noticeboard codegen swift`: Swift `Codable` models of the site's published JSON, from its schemas, so an
/// app decodes it with compiler-checked names. Per kind, the listing (`Cleaner`), its card (`CleanerCard`,
/// what pages hold), and its entry for a collection kind; `NoticeboardModels.swift` holds what every kind
/// shares: typed slugs, calendar days, references, images, pages, the API root. Enums keep an `unknown`
/// case for values a later build adds; decimals are Foundation `Decimal`, which `JSONDecoder` reads from
/// the number's text; optional fields are optionals.
extension Noticeboard {
    public static func swiftModels(_ options: BuildOptions) throws(BuildFailure) -> [OutputFile] {
        let site = try LoadedSite(files: SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes))
        let models = SwiftModels(schemas: site.schemas)
        try models.checkTypeNamesDiffer()
        return [OutputFile(path: "NoticeboardModels.swift", text: SwiftModels.shared)]
            + site.schemas.map { OutputFile(path: models.typeName($0.name) + ".swift", text: models.source(for: $0)) }
    }
}

public struct SwiftModels: Sendable {
    let schemas: [KindSchema]

    /// A kind's type name: its singular, in UpperCamelCase (`Rental item` → `RentalItem`), with `Listing`
    /// after a name an app already has (`Task` → `TaskListing`).
    public func typeName(_ kind: String) -> String {
        let singular = schemas.first { $0.name == kind }?.singular ?? kind
        let name = Self.upperCamel(singular)
        return Self.takenTypeNames.contains(name) ? name + "Listing" : name
    }

    /// The types a kind's file declares at its top level: the listing, its card and its page.
    func declaredTypeNames(_ kind: String) -> [String] {
        let name = typeName(kind)
        return [name, name + "Card", name + "Page"]
    }

    /// Two kinds whose singulars make one type name (`Task` and `Task listing`, `Rental item` and
    /// `rental-item`, or `Cleaner card` and the card of `Cleaner`) would not compile side by side, or write one
    /// file over the other: each is an error at its schema's `singular`.
    func checkTypeNamesDiffer() throws(BuildFailure) {
        let declarations = schemas.flatMap { schema in declaredTypeNames(schema.name).map { ($0, schema) } }
        let byName = Dictionary(grouping: declarations, by: \.0).mapValues { $0.map(\.1) }
        let problems = byName.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.flatMap { name, kinds in
            kinds.map { schema in
                Diagnostic.error(
                    at: SourceLocation(file: schema.file),
                    "the kinds \(kinds.map(\.name).joined(separator: " and ")) both make the Swift type \(name); give one of them another singular")
            }
        }
        guard problems.isEmpty else { throw BuildFailure(problems) }
    }

    /// The shared file's types, and the Swift, Foundation and SwiftUI types an app is likely to use: a model
    /// named `Task` hid Swift's own from the whole app, and one named `Page` did not compile beside the
    /// shared generic `Page`.
    static let takenTypeNames = sharedTypeNames.union([
        "Any", "Array", "Bool", "Character", "Codable", "Collection", "Decodable", "Decoder", "Dictionary", "Double", "Encodable",
        "Encoder", "Error", "Float", "Int", "Never", "Optional", "Range", "Result", "Sendable", "Sequence", "Set", "String", "Substring",
        "Task", "TaskGroup", "Void", "Actor", "MainActor", "Calendar", "Data", "Date", "Decimal", "Locale", "Measurement", "Notification",
        "Operation", "Process", "Thread", "Timer", "TimeZone", "URL", "URLRequest", "UUID", "Button", "Color", "Font", "Form", "Group",
        "Image", "Label", "Link", "List", "Menu", "Section", "Shape", "State", "Tab", "Text", "Toggle", "View", "Window",
    ])

    /// The types `shared` declares at its top level (`Slug`, `Page`, `APIRoot`, `JSONValue`…), read from its text.
    static let sharedTypeNames = Set(shared.split(separator: "\n").compactMap { line -> String? in
        let words = line.split(separator: " ")
        guard line.hasPrefix("public "), let kind = words.firstIndex(where: { ["struct", "enum", "typealias"].contains($0) }), kind + 1 < words.count
        else { return nil }
        return String(words[kind + 1].prefix { $0.isLetter || $0.isNumber })
    })

    /// The name of the type a field's enum or object gets inside its listing: the field's in UpperCamelCase,
    /// with `Value` after a name that would hide a type the models use (a field `string` made `String`, and
    /// every `String` in the listing meant it) or that the listing's coding keys have.
    func nestedTypeName(_ field: String) -> String {
        let name = Self.upperCamel(field)
        let hidden = Self.takenTypeNames.union(["CodingKeys", "CodingKey"]).union(schemas.flatMap { declaredTypeNames($0.name) })
        return hidden.contains(name) ? name + "Value" : name
    }

    /// Letters with accents lose them first (`Ünïcode` → `Unicode`); other letters outside ASCII part words.
    static func upperCamel(_ text: String) -> String {
        let words = text.folding(options: .diacriticInsensitive, locale: nil).split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber ?? true ? "T" + name : name
    }

    static func lowerCamel(_ text: String) -> String {
        let upper = upperCamel(text)
        let name = upper == "T" ? "value" : upper.prefix(1).lowercased() + upper.dropFirst()
        return keywords.contains(name) ? "`\(name)`" : name
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "func", "import", "init", "inout", "let", "operator", "protocol",
        "struct", "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch", "false", "is", "nil", "rethrows",
        "super", "self", "throw", "throws", "true", "try", "unknown", "Type", "Self", "any", "some",
    ]

    /// One property: its Swift name, JSON key and type.
    struct Property {
        let name: String, key: String, type: String
    }

    /// The kind's file: the listing, its card and the nested types its fields need.
    func source(for schema: KindSchema) -> String {
        let name = typeName(schema.name)
        var nested: [String] = []
        // A kind without pages has no URL to give its listings.
        var properties = [
            Property(name: "slug", key: "slug", type: "Slug<\(name)>"), Property(name: "url", key: "url", type: schema.hasPages ? "URL" : "URL?"),
            Property(name: "path", key: "path", type: schema.hasPages ? "String" : "String?"),
        ]
        properties += fields(schema.fields, nested: &nested)
        properties += schema.derived.map { Property(name: Self.lowerCamel($0.name), key: $0.name, type: derivedType($0) + "?") }
        properties.append(Property(name: "updated", key: "updated", type: "CalendarDay"))
        var card = [
            Property(name: "slug", key: "slug", type: "String"), Property(name: "title", key: "title", type: "String"),
            Property(name: "document", key: "document", type: "URL"), Property(name: "url", key: "url", type: "URL?"),
            Property(name: "updated", key: "updated", type: "CalendarDay"),
        ]
        for key in Self.cardFields(of: schema) where !card.contains(where: { $0.key == key }) {
            if let field = schema.facetField(named: key), !field.isPrivate {
                // Its enums and objects are the listing's nested types (an entry field's: the entry's).
                let owner = schema.field(named: key) != nil ? name : name + "." + nestedTypeName(schema.entriesField ?? "")
                var ignored: [String] = []
                card.append(Property(name: Self.lowerCamel(key), key: key, type: swiftType(field.type, name: key, nested: &ignored, owner: owner + ".") + "?"))
            } else if let derived = schema.derived.first(where: { $0.name == key }) {
                card.append(Property(name: Self.lowerCamel(key), key: key, type: derivedType(derived) + "?"))
            }
        }
        return "// \(Self.mark) from content/schemas/\(schema.name).yaml; do not edit.\nimport Foundation\n\n"
            + structure(name, "\(schema.title): one \(schema.singular.lowercased()), as api/\(schema.name)/<slug>.json holds it.", properties, nested: nested)
            + "\n" + structure(name + "Card", "A \(schema.singular.lowercased()) as pages list it.", card, nested: [])
            + "\n/// `api/\(schema.name)/page/N.json` and its facet value pages.\npublic typealias \(name)Page = Page<\(name)Card>\n"
    }

    static func cardFields(of schema: KindSchema) -> [String] {
        var names: [String] = []
        for name in [schema.dateField].compactMap({ $0 }) + (schema.sort + schema.entrySort).map(\.field) + schema.facets
            + [schema.searchRange].compactMap({ $0 }) where !names.contains(name) && name != schema.titleField
        {
            names.append(name)
        }
        return names
    }

    private func fields(_ fields: [FieldSchema], nested: inout [String]) -> [Property] {
        fields.filter { !$0.isPrivate }.flatMap { field -> [Property] in
            let always = field.required || field.defaultValue != nil
            let type = swiftType(field.type, name: field.name, nested: &nested) + (always ? "" : "?")
            var made = [Property(name: Self.lowerCamel(field.name), key: field.name, type: type)]
            if case .markdown = field.type {
                made.append(Property(name: Self.lowerCamel(field.name + "_html"), key: field.name + "_html", type: always ? "String" : "String?"))
            }
            return made
        }
    }

    /// The Swift type of a field's values; enums and objects are added to `nested` and named with `owner`
    /// before them (for a card, which refers to its listing's).
    private func swiftType(_ type: FieldType, name: String, nested: inout [String], owner: String = "") -> String {
        switch type {
        case .string, .markdown, .email, .phone: return "String"
        case .int: return "Int"
        case .decimal: return "Decimal"
        case .bool: return "Bool"
        case .date: return "CalendarDay"
        case .url: return "URL"
        case .image: return "PublishedImage"
        case .reference(let kind): return "Reference<\(typeName(kind))>"
        case .enumeration(let values):
            nested.append(enumeration(nestedTypeName(name), values))
            return owner + nestedTypeName(name)
        case .list(let item): return "[\(swiftType(item.type, name: name, nested: &nested, owner: owner))]"
        case .object(let objectFields):
            var inner: [String] = []
            let properties = fields(objectFields, nested: &inner)
            nested.append(structure(nestedTypeName(name), "One of `\(name)`.", properties, nested: inner))
            return owner + nestedTypeName(name)
        }
    }

    private func derivedType(_ derived: DerivedField) -> String {
        switch derived.operation {
        case .count, .daysSince: return "Int"
        case .average, .bayesianAverage, .sum, .minimum, .maximum, .ratio, .times: return "Decimal"
        case .atLeast: return "Bool"
        case .list: return "[\(typeName(derived.from ?? ""))]"
        case .sumBy: return "[GroupTotal]"
        case .lookup: return "JSONValue"
        }
    }

    private func structure(_ name: String, _ comment: String, _ properties: [Property], nested: [String]) -> String {
        var lines = ["/// \(comment)", "public struct \(name): Codable, Sendable {"]
        lines += properties.map { "    public let \($0.name): \($0.type)" }
        lines += nested.map { "\n" + $0.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n") }
        lines += ["", "    enum CodingKeys: String, CodingKey {"]
        lines += properties.map { "        case \($0.name) = \"\($0.key)\"" }
        lines += ["    }", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// An enum with a case per value and `unknown` for a value a later build adds.
    private func enumeration(_ name: String, _ values: [String]) -> String {
        var used = Set<String>()
        let cases = values.map { value -> (String, String) in
            var base = Self.lowerCamel(value), candidate = base, counter = 2
            if base == "`unknown`" { base = "unknownValue"; candidate = base }
            while !used.insert(candidate).inserted { candidate = "\(base)\(counter)"; counter += 1 }
            return (candidate, value)
        }
        func literal(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var lines = ["public enum \(name): Codable, Hashable, Sendable {"]
        lines += cases.map { "    case \($0.0)" }
        lines += [
            "    /// A value this model does not know: added by a later build.", "    case unknown(String)", "",
            "    public init(from decoder: Decoder) throws {", "        let text = try decoder.singleValueContainer().decode(String.self)",
            "        switch text {",
        ]
        lines += cases.map { "        case \(literal($0.1)): self = .\($0.0)" }
        lines += ["        default: self = .unknown(text)", "        }", "    }", "", "    public var rawValue: String {", "        switch self {"]
        lines += cases.map { "        case .\($0.0): return \(literal($0.1))" }
        lines += [
            "        case .unknown(let text): return text", "        }", "    }", "",
            "    public func encode(to encoder: Encoder) throws {", "        var container = encoder.singleValueContainer()",
            "        try container.encode(rawValue)", "    }", "}",
        ]
        return lines.joined(separator: "\n")
    }
}

extension SwiftModels {
    /// What every file it writes says near its start, so that a later run replaces it and no file of the user's.
    public static let mark = "Generated by `noticeboard codegen swift`"
    /// How every file it writes starts.
    public static let fileMark = GeneratedFileMark(start: "// " + mark)

    /// What every kind's models share.
    static let shared = """
        // \(mark); do not edit.
        import Foundation

        /// The slug of a listing of the kind `Kind`: not interchangeable with another kind's.
        public struct Slug<Kind>: Codable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String
            public init(_ rawValue: String) { self.rawValue = rawValue }
            public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
            public func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(rawValue)
            }
            public var description: String { rawValue }
        }

        /// A day as the API writes dates: `2026-11-23`.
        public struct CalendarDay: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
            public let year: Int, month: Int, day: Int

            public init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                let parts = text.split(separator: "-").compactMap { Int($0) }
                guard text.count == 10, parts.count == 3 else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\\(text)' is not a date such as 2026-11-23")
                }
                (year, month, day) = (parts[0], parts[1], parts[2])
            }

            public func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(description)
            }

            public var description: String {
                String(format: "%04d-%02d-%02d", year, month, day)
            }

            /// Midnight of the day in UTC.
            public var date: Date {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                return calendar.date(from: DateComponents(year: year, month: month, day: day))!
            }

            public static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
        }

        /// A reference field's value: the listing of kind `Kind` it points at.
        public struct Reference<Kind>: Codable, Sendable {
            public let kind: String
            public let slug: Slug<Kind>
            public let title: String
            public let path: String?
            public let url: URL?
        }

        /// An image field's value: the fallback file and every published variant.
        public struct PublishedImage: Codable, Sendable {
            public struct Variant: Codable, Sendable {
                public let url: URL
                public let width: Int
                public let height: Int
                public let format: String
            }
            public let path: String
            public let src: String
            public let url: URL
            public let width: Int
            public let height: Int
            public let format: String
            public let srcset: String?
            public let webpSrcset: String?
            public let variants: [Variant]

            enum CodingKeys: String, CodingKey {
                case path, src, url, width, height, format, srcset, variants
                case webpSrcset = "webp_srcset"
            }
        }

        /// One group of a `sum_by` derived field.
        public struct GroupTotal: Codable, Sendable {
            public let group: String
            public let total: Decimal
        }

        /// A value whose type the schema leaves open (a looked-up field).
        public indirect enum JSONValue: Codable, Sendable {
            case string(String), number(Decimal), bool(Bool), null, list([JSONValue]), object([String: JSONValue])

            public init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() { self = .null }
                else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
                else if let number = try? container.decode(Decimal.self) { self = .number(number) }
                else if let text = try? container.decode(String.self) { self = .string(text) }
                else if let list = try? container.decode([JSONValue].self) { self = .list(list) }
                else { self = .object(try container.decode([String: JSONValue].self)) }
            }

            public func encode(to encoder: Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .string(let text): try container.encode(text)
                case .number(let number): try container.encode(number)
                case .bool(let flag): try container.encode(flag)
                case .null: try container.encodeNil()
                case .list(let list): try container.encode(list)
                case .object(let object): try container.encode(object)
                }
            }
        }

        /// One page of a list: `api/<kind>/page/N.json`, `api/<kind>/<facet>/<value>.json`.
        public struct Page<Card: Decodable & Sendable>: Decodable, Sendable {
            public struct Slice: Decodable, Sendable {
                public let name: String, value: String, slug: String
            }
            public let kind: String
            public let facet: Slice?
            public let page: Int, pages: Int, total: Int, pageSize: Int
            public let prev: URL?, next: URL?
            public let items: [Card]

            enum CodingKeys: String, CodingKey {
                case kind, facet, page, pages, total, prev, next, items
                case pageSize = "page_size"
            }
        }

        /// `api/<kind>/<facet>.json`: a facet's values.
        public struct FacetValues: Decodable, Sendable {
            public struct Value: Decodable, Sendable {
                public let value: String, slug: String, count: Int, url: URL
            }
            public let kind: String, facet: String, label: String
            public let values: [Value]
        }

        /// `api/<kind>.json`: every listing of a kind.
        public struct KindDocument<Listing: Decodable & Sendable>: Decodable, Sendable {
            public let kind: String, title: String
            public let url: URL?
            public let count: Int
            public let items: [Listing]
        }

        /// `api/<kind>/daily/YYYY-MM-DD.json`: the pick of a day.
        public struct DailyPick<Entry: Decodable & Sendable>: Decodable, Sendable {
            public struct Picked: Decodable, Sendable {
                public let slug: String, title: String
                public let url: URL?
            }
            public let date: CalendarDay
            public let entry: Entry
            public let position: Int?
            public let listing: Picked
        }

        /// `api/index.json`: where an app starts.
        public struct APIRoot: Decodable, Sendable {
            public struct Kind: Decodable, Sendable {
                public struct Pages: Decodable, Sendable {
                    public let count: Int, size: Int
                    public let first: URL
                }
                /// How the site's pages show a field: `format` is `currency` (in the root's `currency`), `rating`
                /// (out of `outOf`) or nil.
                public struct Field: Decodable, Sendable {
                    public let name: String, label: String
                    public let format: String?
                    public let outOf: Decimal?

                    enum CodingKeys: String, CodingKey {
                        case name, label, format
                        case outOf = "out_of"
                    }
                }
                public struct Facet: Decodable, Sendable {
                    public let name: String, label: String
                    public let url: URL
                }
                public let name: String, title: String, singular: String, count: Int
                public let schema: URL
                public let pages: Pages
                public let fields: [Field]
                public let facets: [Facet]
                public let daily: String?
            }
            public let apiVersion: Int
            public let title: String
            public let url: URL
            /// The site's language (a BCP 47 tag) and currency (ISO 4217), to format values as its pages do.
            public let language: String, currency: String
            public let build: Int
            public let date: CalendarDay
            public let sync: URL
            public let kinds: [Kind]

            enum CodingKeys: String, CodingKey {
                case title, url, language, currency, build, date, sync, kinds
                case apiVersion = "api_version"
            }
        }

        """
}
