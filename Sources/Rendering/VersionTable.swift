import Support

/// Listings' versions kind by kind, each kind's in slug order. The build record names a listing by its key
/// `<kind>/<slug>` and lists them in key order; held here, a version made by a full build keeps the
/// listing's own slug string.
/// At 10× L, one table keyed by `<kind>/<slug>` held 105 MB through rendering (its 400,000 keys made
/// anew, and a hash table grown past them); these arrays hold 29 MB.
public struct VersionTable: Equatable, Sendable {
    public typealias Version = ListingVersions.Version

    struct Entry: Equatable, Sendable {
        let slug: String
        var version: Version
    }

    /// By kind, each in slug order with each slug once.
    private var kinds: [String: [Entry]] = [:]

    public init() {}

    public var count: Int { kinds.values.reduce(0) { $0 + $1.count } }
    public var isEmpty: Bool { kinds.values.allSatisfy(\.isEmpty) }

    /// A kind's versions, replacing any it had, from its listings' slugs (each once) and versions.
    mutating func setKind(_ kind: String, _ entries: [Entry]) {
        kinds[kind] = entries.isEmpty ? nil : entries.sorted { $0.slug < $1.slug }
    }

    public subscript(kind kind: String, slug slug: String) -> Version? {
        get {
            guard let entries = kinds[kind] else { return nil }
            let index = entries.insertionIndex(of: slug, by: \.slug)
            return index < entries.count && entries[index].slug == slug ? entries[index].version : nil
        }
        set {
            var entries = kinds.removeValue(forKey: kind) ?? []
            let index = entries.insertionIndex(of: slug, by: \.slug)
            let isThere = index < entries.count && entries[index].slug == slug
            switch (newValue, isThere) {
            case (let version?, true): entries[index].version = version
            case (let version?, false): entries.insert(Entry(slug: slug, version: version), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
            if !entries.isEmpty { kinds[kind] = entries }
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
            for entry in kinds[kind]! { body(kind + "/" + entry.slug, entry.version) }
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
            let (mine, theirs) = (now.kinds[kind] ?? [], last.kinds[kind] ?? [])
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
