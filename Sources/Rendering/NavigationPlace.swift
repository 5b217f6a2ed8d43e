import SiteModel

/// Where a page is in the site's navigation, which its entries' `current` marks for `aria-current`: "page"
/// on the entry that links the page itself (a kind's first list page, its map, a free page), "true" on the
/// kind's entry from the kind's other pages (its listings, facets, later list pages), false elsewhere.
enum NavigationPlace: Hashable, Sendable {
    case outside
    case kind(String)
    case inKind(String)
    case map(String)
    case freePage(String)

    /// The kind's place for a page at `outputPath`: its own entry's page, or one within it.
    static func of(kind: String, outputPath: String, kindPath: String) -> NavigationPlace {
        outputPath == kindPath ? .kind(kind) : .inKind(kind)
    }

    func mark(kind name: String) -> Value {
        switch self {
        case .kind(name): return .string("page")
        case .inKind(name), .map(name): return .string("true")
        default: return .bool(false)
        }
    }

    func mark(mapOf kind: String) -> Value {
        self == .map(kind) ? .string("page") : .bool(false)
    }

    func mark(freePage slug: String) -> Value {
        self == .freePage(slug) ? .string("page") : .bool(false)
    }
}
