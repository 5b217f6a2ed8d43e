/// How a kind's listing pages describe themselves to search engines as JSON-LD (`schema_org:` in the kind's
/// schema): a schema.org type, and which of the kind's public fields fill which of its properties.
public struct SchemaOrgMapping: Sendable {
    /// A schema.org type such as `LocalBusiness`, `Product` or `Quotation`.
    public var type: String
    /// In the schema's order.
    public var properties: [Property]

    public struct Property: Sendable {
        /// A schema.org property such as `name` or `aggregateRating`.
        public var name: String
        public var source: Source

        public init(name: String, source: Source) {
            self.name = name
            self.source = source
        }
    }

    public indirect enum Source: Sendable {
        /// A public field or derived field of the listing, or of the entry or object being mapped.
        case field(String)
        /// The site's currency code (`site.currency`), for `priceCurrency`.
        case siteCurrency
        /// A typed object of its own (an `Offer`, an `AggregateRating`) from the same fields; with `from`, one
        /// for each item of that list-of-objects field (or for that object field), from the item's fields.
        case object(SchemaOrgMapping, from: String?)
    }

    public init(type: String, properties: [Property]) {
        self.type = type
        self.properties = properties
    }
}
