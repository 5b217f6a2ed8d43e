import OrderedCollections
import Synchronization

/// The orders of field names a kind's listings come in, each held once and shared by the listings with that
/// order. A listing's fields are an `OrderedDictionary`, which keeps its names in storage of its own: a
/// dozen names are about 300 bytes, for each of 400,000 listings and as many nested objects. Made from a
/// shared `OrderedSet`, a dictionary holds that set's storage until a name is added or removed (then it
/// copies, as any value would). Concurrent enrichment asks for layouts from every core.
public final class FieldLayouts: Sendable {
    private let known = Mutex<[[String]: OrderedSet<String>]>([:])
    /// Beyond this many orders a kind's optional fields make nearly every listing's order its own, and a new
    /// one is no longer kept.
    static let maximumKept = 4096

    public init() {}

    /// `list`'s fields, their names in the shared storage of their order.
    public func fields(_ list: FieldList) -> OrderedDictionary<String, Value> {
        dictionary(names: list.names, values: list.values)
    }

    /// `names` with `values` (a listing's display texts, say), the names in the shared storage of their order.
    public func dictionary<Element>(names: [String], values: [Element]) -> OrderedDictionary<String, Element> {
        OrderedDictionary(uncheckedUniqueKeys: layout(of: names), values: values)
    }

    /// The same entries after names were added to them one by one: their names shared.
    public func sharing<Element>(_ dictionary: OrderedDictionary<String, Element>) -> OrderedDictionary<String, Element> {
        self.dictionary(names: Array(dictionary.keys), values: Array(dictionary.values))
    }

    /// The one set of `names`, in their order; `names` are distinct.
    public func layout(of names: [String]) -> OrderedSet<String> {
        known.withLock { known in
            if let layout = known[names] { return layout }
            let layout = OrderedSet(names)
            precondition(layout.count == names.count, "a field's name appears twice")
            if known.count < Self.maximumKept { known[names] = layout }
            return layout
        }
    }
}

/// Fields gathered in order, names and values apart, to be made into a dictionary by `FieldLayouts`.
public struct FieldList: Sendable {
    public private(set) var names: [String] = []
    public private(set) var values: [Value] = []

    /// Room for `capacity` fields: the values' storage becomes the dictionary's.
    public init(capacity: Int) {
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    public mutating func append(_ name: String, _ value: Value) {
        names.append(name)
        values.append(value)
    }
}
