import SiteModel
import Support

/// Listings' versions kind by kind, each kind's in slug order. The build record names a listing by its key
/// `<kind>/<slug>` and lists them in key order; held here, a version made by a full build keeps the
/// listing's own slug string.
/// At 10× L, one table keyed by `<kind>/<slug>` held 105 MB through rendering (its 400,000 keys made
/// anew, and a hash table grown past them); these arrays hold 29 MB, and their positions by slug 22 MB more.
public struct VersionTable: Equatable, Sendable {
    public typealias Version = ListingVersions.Version

    struct Entry: Equatable, Sendable {
        let slug: String
        var version: Version
    }

    /// By kind.
    private var kinds: [String: KindVersions] = [:]

    /// A kind's entries in slug order, each slug once, with each slug's position: looked up by binary search,
    /// a version cost 17 comparisons of slugs scattered through memory, 5 s of a core at 10× L. The
    /// positions share the entries' slug strings.
    private struct KindVersions: Sendable {
        private(set) var entries: [Entry]
        private var positions: [String: Int32]

        init(sorted entries: [Entry]) {
            self.entries = entries
            // Slugs are unique (a build stops at a slug taken twice); were one not, the first would be found, as a search finds it.
            positions = Dictionary(entries.enumerated().map { ($1.slug, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        }

        subscript(slug: String) -> Version? {
            positions[slug].map { entries[Int($0)].version }
        }

        /// Sets, adds (in slug order) or with nil removes the slug's version.
        mutating func set(_ version: Version?, for slug: String) {
            if let position = positions[slug].map(Int.init) {
                if let version {
                    entries[position].version = version
                } else {
                    entries.remove(at: position)
                    positions[slug] = nil
                    renumber(from: position)
                }
            } else if let version {
                let position = entries.insertionIndex(of: slug, by: \.slug)
                entries.insert(Entry(slug: slug, version: version), at: position)
                renumber(from: position)
            }
        }

        /// The positions from `start` on, after an entry came or went there (none but its own when a record
        /// read in order adds each at the end).
        private mutating func renumber(from start: Int) {
            for position in start..<entries.count { positions[entries[position].slug] = Int32(position) }
        }
    }

    public init() {}

    public static func == (lhs: VersionTable, rhs: VersionTable) -> Bool {
        lhs.kinds.mapValues(\.entries) == rhs.kinds.mapValues(\.entries)
    }

    public var count: Int { kinds.values.reduce(0) { $0 + $1.entries.count } }
    public var isEmpty: Bool { kinds.values.allSatisfy(\.entries.isEmpty) }

    /// The newest `updated` of a kind's versions; nil for a kind with none.
    func newestUpdate(ofKind kind: String) -> CalendarDate? {
        kinds[kind]?.entries.lazy.map(\.version.updated).max()
    }

    /// A kind's versions, replacing any it had, from its listings' slugs (each once) and versions.
    mutating func setKind(_ kind: String, _ entries: [Entry]) {
        kinds[kind] = entries.isEmpty ? nil : KindVersions(sorted: entries.sorted { $0.slug < $1.slug })
    }

    public subscript(kind kind: String, slug slug: String) -> Version? {
        get { kinds[kind]?[slug] }
        set {
            var versions = kinds.removeValue(forKey: kind) ?? KindVersions(sorted: [])
            versions.set(newValue, for: slug)
            if !versions.entries.isEmpty { kinds[kind] = versions }
        }
    }

    /// The version under a record key.
    public subscript(key: String) -> Version? {
        Self.kindAndSlug(key).flatMap { self[kind: $0.kind, slug: $0.slug] }
    }

    /// Sets (or with nil removes) the version under a record key; false when the key names no kind and slug.
    @discardableResult
    public mutating func set(_ version: Version?, forKey key: String) -> Bool {
        guard let (kind, slug) = Self.kindAndSlug(key) else { return false }
        self[kind: kind, slug: slug] = version
        return true
    }

    /// Every version with its record key, in key order: kinds in the order of their keys' `<kind>/`
    /// (a kind's keys all begin with it, and no other key does), each kind's slugs in order.
    public func forEachKeyed(_ body: (_ key: String, _ version: Version) -> Void) {
        for kind in kinds.keys.sorted(by: { $0 + "/" < $1 + "/" }) {
            for entry in kinds[kind]!.entries { body(kind + "/" + entry.slug, entry.version) }
        }
    }

    /// Every record key, in order.
    public var keys: [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        forEachKeyed { key, _ in keys.append(key) }
        return keys
    }

    /// The record keys whose versions differ between the two tables, or that only one has, sorted.
    public static func differingKeys(_ now: VersionTable, _ last: VersionTable) -> [String] {
        var keys: [String] = []
        for kind in Set(now.kinds.keys).union(last.kinds.keys) {
            let (mine, theirs) = (now.kinds[kind]?.entries ?? [], last.kinds[kind]?.entries ?? [])
            var (i, j) = (0, 0)
            // Both in slug order: walked side by side.
            while i < mine.count || j < theirs.count {
                if j == theirs.count || (i < mine.count && mine[i].slug < theirs[j].slug) {
                    keys.append(kind + "/" + mine[i].slug)
                    i += 1
                } else if i == mine.count || theirs[j].slug < mine[i].slug {
                    keys.append(kind + "/" + theirs[j].slug)
                    j += 1
                } else {
                    if mine[i].version != theirs[j].version { keys.append(kind + "/" + mine[i].slug) }
                    (i, j) = (i + 1, j + 1)
                }
            }
        }
        return keys.sorted()
    }

    /// `cleaners/ana` → (`cleaners`, `ana`); nil for a key without both.
    private static func kindAndSlug(_ key: String) -> (kind: String, slug: String)? {
        guard let slash = key.firstIndex(of: "/"), slash != key.startIndex, key.index(after: slash) != key.endIndex else { return nil }
        return (String(key[..<slash]), String(key[key.index(after: slash)...]))
    }
}
