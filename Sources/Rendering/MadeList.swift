import SiteModel

/// A list a template walks whose items are made one at a time as it walks them, and let go after: a map
/// page's cards of every place of a kind, which made ahead were 38 MB of the L build's heap (10,000 places),
/// a list page's cards (`CardList`), which a page whose render key is unchanged never makes, and a list
/// page's links to every page of its list (`pagination.pages`), which made ahead grew with the square of its length.
/// Templates see it as they see a list of the same items (`TemplateValue.madeList`); render keys take its
/// stand-in, made from the same inputs.
struct MadeList: RandomAccessCollection, Sendable {
    let count: Int
    let keyStandIn: Value
    private let make: @Sendable (Int) -> Value

    init(count: Int, keyStandIn: Value, make: @escaping @Sendable (Int) -> Value) {
        self.count = count
        self.keyStandIn = keyStandIn
        self.make = make
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(position: Int) -> Value { make(position) }
}
