/// Which fields a kind's cards show, wherever a card appears (lists, facet pages, the home page's newest,
/// lists of referring listings such as an owner's rentals, search results). Declared with `card:` in the
/// kind's schema, or `KindSchema.defaultCard` made from its fields.
public struct CardFields: Sendable, Hashable {
    /// An image field, or a list of images (its first is shown).
    public var photo: String?
    /// Number fields, declared or derived, shown with their label and display text ("Hourly rate €22.50").
    public var figures: [String]
    /// A text, enum or reference field, or a list of them (a facet's values link to their pages).
    public var place: String?
    /// More text, enum or reference fields (or lists of them), each shown as a labelled line ("Languages: Irish, Polish").
    public var tags: [String]
    /// A number field, declared or derived, shown as a rating ("4.5 out of 5").
    public var rating: String?
    /// How many values the rating is the average of (a derived `count`).
    public var ratingCount: String?

    public init(
        photo: String? = nil, figures: [String] = [], place: String? = nil, tags: [String] = [], rating: String? = nil, ratingCount: String? = nil
    ) {
        self.photo = photo
        self.figures = figures
        self.place = place
        self.tags = tags
        self.rating = rating
        self.ratingCount = ratingCount
    }

    /// Every field the card reads.
    public var names: [String] {
        [photo].compactMap { $0 } + figures + [place].compactMap { $0 } + tags + [rating, ratingCount].compactMap { $0 }
    }
}

extension KindSchema {
    /// The card a kind declares, else `defaultCard`.
    public var cardFields: CardFields { card ?? defaultCard }

    /// For a kind that declares no card: its first public image field (or list of images), its first
    /// currency-formatted number (declared or derived), its first facet of the listing itself, and its first
    /// rating-formatted derived field with the `count` over the same listings as its count.
    public var defaultCard: CardFields {
        let visible = fields.filter { !$0.isPrivate }
        let photo = visible.first { $0.type.holdsImages }
        let currency = visible.first { $0.format == .currency }?.name ?? derived.first { $0.format == .currency }?.name
        let place = facets.first { field(named: $0) != nil }
        let rating = derived.first { $0.format == .rating }
        let count = rating.flatMap { rating in
            derived.first { $0.operation == .count && $0.from == rating.from && $0.via == rating.via }
        }
        return CardFields(
            photo: photo?.name, figures: currency.map { [$0] } ?? [], place: place, rating: rating?.name, ratingCount: count?.name)
    }
}
