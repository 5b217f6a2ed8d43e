import LocatedYAML
import SiteModel

/// `card:` in a kind schema: which of the kind's public fields (declared or derived) its cards show, each
/// slot checked for a field of a type it can show.
///
/// ```yaml
/// card: {photo: photos, figures: [price_per_day, deposit], place: city, tags: [category], rating: rating, rating_count: review_count}
/// ```
func decodeCard(_ node: YAMLNode, fields: [FieldSchema], derived: [DerivedField], failed: Set<String>, problems: inout Problems) -> CardFields? {
    guard let settings = MappingReader(node, what: "'card'", problems: &problems) else { return nil }
    settings.reportUnknownKeys(known: ["photo", "figures", "place", "tags", "rating", "rating_count"], what: "'card'", problems: &problems)
    let slots = CardSlots(fields: fields, derived: derived, failed: failed)
    var card = CardFields()
    card.photo = slots.field("photo", in: settings, what: "an image field or a list of images", problems: &problems, accepts: CardSlots.isImage)
    for (name, node) in settings.stringList("figures", problems: &problems) ?? [] {
        if let name = slots.check(name, at: node, slot: "figures", what: "a number field", problems: &problems, accepts: CardSlots.isNumber) {
            card.figures.append(name)
        }
    }
    card.place = slots.field("place", in: settings, what: "a text, enum or reference field, or a list of them", problems: &problems, accepts: CardSlots.isPlace)
    for (name, node) in settings.stringList("tags", problems: &problems) ?? [] {
        let what = "a text, enum or reference field, or a list of them"
        if let name = slots.check(name, at: node, slot: "tags", what: what, problems: &problems, accepts: CardSlots.isPlace) { card.tags.append(name) }
    }
    card.rating = slots.field("rating", in: settings, what: "a number field", problems: &problems, accepts: CardSlots.isNumber)
    card.ratingCount = slots.field("rating_count", in: settings, what: "a number field", problems: &problems, accepts: CardSlots.isNumber)
    return card
}

/// The fields a card's slots may name: the kind's public fields and its derived fields.
private struct CardSlots {
    let fields: [FieldSchema]
    let derived: [DerivedField]
    /// Fields whose declaration failed, reported already.
    let failed: Set<String>

    func field(
        _ slot: String, in settings: MappingReader, what: String, problems: inout Problems, accepts: (FieldType?, DerivedField?) -> Bool
    ) -> String? {
        guard let name = settings.string(slot, problems: &problems), let node = settings.value(slot) else { return nil }
        return check(name, at: node, slot: slot, what: what, problems: &problems, accepts: accepts)
    }

    func check(
        _ name: String, at node: YAMLNode, slot: String, what: String, problems: inout Problems, accepts: (FieldType?, DerivedField?) -> Bool
    ) -> String? {
        let declared = fields.first { $0.name == name }, computed = derived.first { $0.name == name }
        guard declared != nil || computed != nil else {
            if !failed.contains(name) {
                let known = fields.filter { !$0.isPrivate }.map(\.name) + derived.map(\.name)
                problems.error(node, "card '\(slot)' names '\(name)', which is not a field of this kind\(suggestion(for: name, among: known))")
            }
            return nil
        }
        if let declared, declared.isPrivate {
            problems.error(node, "card '\(slot)' cannot show the private field '\(name)'; cards are published")
            return nil
        }
        guard accepts(declared?.type, computed) else {
            let type = declared.map { typeField($0.type.name) } ?? "a derived field that is not a number"
            problems.error(node, "card '\(slot)' must name \(what); '\(name)' is \(type)")
            return nil
        }
        return name
    }

    static func isImage(_ type: FieldType?, _ derived: DerivedField?) -> Bool {
        type?.holdsImages ?? false
    }

    static func isNumber(_ type: FieldType?, _ derived: DerivedField?) -> Bool {
        switch type {
        case .int?, .decimal?: return true
        case nil: return derived?.isNumeric ?? false
        default: return false
        }
    }

    static func isPlace(_ type: FieldType?, _ derived: DerivedField?) -> Bool {
        switch type {
        case .string?, .enumeration?, .reference?: return true
        case .list(let item)?: return isPlace(item.type, nil)
        default: return false
        }
    }
}
