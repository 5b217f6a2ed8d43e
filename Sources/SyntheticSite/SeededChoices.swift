import SiteModel
import Support

/// Choices drawn from a seeded SplitMix64, so a seed always gives the same catalogue. The standard
/// library's `random(in:using:)` is avoided on purpose: its algorithm may change between Swift releases.
struct SeededChoices {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// A number in `range`, both ends included.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(generator.next() % UInt64(range.count))
    }

    /// True with the given chance in percent.
    mutating func chance(_ percent: Int) -> Bool {
        int(0...99) < percent
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[int(0...(items.count - 1))]
    }

    /// `count` different items in their order of `items`.
    mutating func pick<T>(_ count: Int, of items: [T]) -> [T] {
        var chosen = Set<Int>()
        while chosen.count < min(count, items.count) { chosen.insert(int(0...(items.count - 1))) }
        return chosen.sorted().map { items[$0] }
    }

    /// `units` hundredths (or other fraction) as a fixed-point string: 1850 with 2 digits is "18.50".
    mutating func fixed(_ range: ClosedRange<Int>, fractionDigits: Int) -> String {
        FixedDecimal(units: Int64(int(range)), scale: fractionDigits).description
    }

    mutating func date(from start: CalendarDate, days: Int) -> CalendarDate {
        start.adding(days: int(0...days))
    }
}
