import OrderedCollections
import Synchronization

/// The orders of field names a kind's listings come in, each held once and shared by the listings with that
/// order. A listing's fields are an `OrderedDictionary`, which keeps its names (and, past 15 of them, their
/// hash table) in storage of its own: a dozen names are about 300 bytes, for each of 400,000 listings and as
/// many entries and nested objects. Each order is kept as a template (name → position), and a dictionary made
/// by `mapValues` from it holds the template's names and table until a name is added or removed (then it
/// copies, as any value would). Concurrent enrichment asks for templates from every core.
public final class FieldLayouts: Sendable {
    private let known = Mutex<[[String]: OrderedDictionary<String, Int>]>([:])
    /// Beyond this many orders a kind's optional fields make nearly every listing's order its own, and a new
    /// one is no longer kept.
    static let maximumKept = 4096

    public init() {}

    /// `list`'s fields, their names shared with the other dictionaries of their order.
    public func fields(_ list: FieldList) -> OrderedDictionary<String, Value> {
        dictionary(names: list.names, values: list.values)
    }

    /// `names` with `values` (a listing's display texts, say), the names shared with the other dictionaries
    /// of their order. The names must be distinct.
    public func dictionary<Element>(names: [String], values: [Element]) -> OrderedDictionary<String, Element> {
        precondition(names.count == values.count, "a name for each value")
        return template(for: names).mapValues { values[$0] }
    }

    /// The same entries after names were added to them one by one: their names shared.
    public func sharing<Element>(_ dictionary: OrderedDictionary<String, Element>) -> OrderedDictionary<String, Element> {
        self.dictionary(names: Array(dictionary.keys), values: Array(dictionary.values))
    }

    /// Each name's position, in their order.
    private func template(for names: [String]) -> OrderedDictionary<String, Int> {
        known.withLock { known in
            if let template = known[names] { return template }
            let template = OrderedDictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
            if known.count < Self.maximumKept { known[names] = template }
            return template
        }
    }
}

/// Fields gathered in order, names and values apart, to be made into a dictionary by `FieldLayouts`.
public struct FieldList: Sendable {
    public private(set) var names: [String] = []
    public private(set) var values: [Value] = []

    /// Room for `capacity` fields, so gathering them does not grow the lists.
    public init(capacity: Int) {
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    public mutating func append(_ name: String, _ value: Value) {
        names.append(name)
        values.append(value)
    }
}
