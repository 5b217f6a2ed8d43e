import SiteModel

/// What the cards, pages and list documents of a kind read from its schema, worked out once per build. A
/// listing shows on every list page, map, search file and list document that has it, and each time its
/// kind's default card was worked out again, each label looked up by name and each field's schema copied.
struct KindLayout: Sendable {
    /// A field the card shows with its label.
    struct Labelled: Sendable {
        let name: String
        let label: String
    }

    /// A place or tag field of the card: its values link to their facet pages when it is a facet.
    struct Linked: Sendable {
        let name: String
        let label: String
        let isFacet: Bool
    }

    let kind: String
    /// The card's parts (`KindSchema.cardFields`).
    let photo: String?
    let figures: [Labelled]
    let place: Linked?
    let tags: [Linked]
    let rating: Labelled?
    let ratingCount: String?
    /// The public date fields, which pages show as text (`dates`).
    let dateFields: [String]
    /// For a collection kind, the entry field that titles an entry: its first public text field.
    let entryTitleField: String?
    /// The fields a list document's card carries besides its title (`SiteRenderer.keyFields`).
    let keyFields: [String]

    init(_ schema: KindSchema) {
        let card = schema.cardFields
        let labelled = { (name: String) in Labelled(name: name, label: schema.label(of: name) ?? name) }
        let linked = { (name: String) in Linked(name: name, label: labelled(name).label, isFacet: schema.facets.contains(name)) }
        kind = schema.name
        photo = card.photo
        figures = card.figures.map(labelled)
        place = card.place.map(linked)
        tags = card.tags.map(linked)
        rating = card.rating.map(labelled)
        ratingCount = card.ratingCount
        dateFields = schema.fields.filter { field in
            if case .date = field.type { !field.isPrivate } else { false }
        }.map(\.name)
        entryTitleField = schema.entryFields.first { field in
            if case .string = field.type { !field.isPrivate } else { false }
        }?.name
        keyFields = SiteRenderer.keyFields(of: schema)
    }
}
