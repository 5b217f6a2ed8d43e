import SiteModel
import Support

/// One entry (or listing) per day. Day `d` gets `order[d mod n]` of one fixed shuffle of the pool, so the
/// pick for a date never depends on the build date, and any `n` consecutive days show `n` different entries.
public struct DailyPicks: Sendable {
    public struct Pick: Sendable {
        public let date: CalendarDate
        /// The entry's fields (for a collection kind) or the listing's.
        public let entry: Value
        /// The listing it comes from.
        public let listing: Listing
        /// Its position in that listing's entries (1-based), nil for a kind without entries.
        public let position: Int?
    }

    public let picks: [Pick]

    /// Whether the kind has anything to pick: a listing, or for a collection kind an entry.
    public static func havePool(_ collection: KindCollection) -> Bool {
        guard let entriesField = collection.schema.entriesField else { return !collection.listings.isEmpty }
        return collection.listings.contains { !($0.fields[entriesField]?.listValue ?? []).isEmpty }
    }

    public init(collection: KindCollection, from start: CalendarDate, days: Int) {
        var pool: [(Value, Listing, Int?)] = []
        let bySlug = collection.listings.sorted { $0.slug < $1.slug }
        for listing in bySlug {
            if let entriesField = collection.schema.entriesField {
                for (index, entry) in (listing.fields[entriesField]?.listValue ?? []).enumerated() {
                    pool.append((entry, listing, index + 1))
                }
            } else {
                pool.append((.object(listing.fields), listing, nil))
            }
        }
        guard !pool.isEmpty else {
            picks = []
            return
        }
        var generator = SplitMix64(seed: stableHash(collection.schema.name))
        var order = Array(pool.indices)
        // Fisher–Yates with our own seeded generator: the standard library's is not reproducible.
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        picks = (0..<days).map { offset in
            let date = start.adding(days: offset)
            let dayIndex = ((date.dayNumber % pool.count) + pool.count) % pool.count
            let (entry, listing, position) = pool[order[dayIndex]]
            return Pick(date: date, entry: entry, listing: listing, position: position)
        }
    }
}

/// FNV-1a: a hash that, unlike `Hasher`, is the same in every process.
func stableHash(_ text: String) -> UInt64 {
    text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
}
