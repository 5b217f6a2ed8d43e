import CatalogueIndex
import OrderedCollections
import SiteModel

/// The parts of a listing's card, from its kind's `CardFields` (as `KindLayout` holds them): shared by the
/// cards of HTML pages (`card` in their context) and the search index's (`SearchDocument.Card`), so a card
/// shows the same everywhere.
struct CardParts {
    /// The image value (`src`, `srcset`, `variants`…) of the photo slot, or a list's first image.
    let photo: Value?
    /// Each figure's field name, label and display text ("Hourly rate", "€22.50").
    let figures: [(name: String, label: String, text: String)]
    /// The place's values; `path` is the value's facet page when the place is a facet, else the page of the
    /// listing a reference names.
    let place: [(text: String, path: String?)]
    /// Each tag field's label and values, as `place`.
    let tags: [(label: String, values: [(text: String, path: String?)])]
    let rating: (label: String, text: String, value: Value, count: Int64?)?

    init(_ listing: Listing, layout: KindLayout, facetValuePaths: FacetValuePaths) {
        photo = layout.photo.flatMap { name in
            let value = listing.fields[name]
            return value?.listValue.map { $0.first } ?? value
        }
        figures = layout.figures.compactMap { figure in
            guard let value = listing.fields[figure.name] else { return nil }
            return (figure.name, figure.label, listing.display[figure.name] ?? value.text)
        }
        place = layout.place.map { Self.linkedValues(of: $0, listing, kind: layout.kind, paths: facetValuePaths) } ?? []
        tags = layout.tags.compactMap { tag in
            let values = Self.linkedValues(of: tag, listing, kind: layout.kind, paths: facetValuePaths)
            return values.isEmpty ? nil : (tag.label, values)
        }
        rating = layout.rating.flatMap { rating in
            guard let value = listing.fields[rating.name] else { return nil }
            let text = listing.display[rating.name] ?? value.text
            if case .int(let count)? = layout.ratingCount.flatMap({ listing.fields[$0] }) { return (rating.label, text, value, count) }
            return (rating.label, text, value, nil)
        }
    }

    /// A field's values, each linking to its facet page when the field is a facet, else (a reference) to its listing.
    private static func linkedValues(of field: KindLayout.Linked, _ listing: Listing, kind: String, paths: FacetValuePaths) -> [(text: String, path: String?)] {
        placeValues(listing.fields[field.name]).map { text, referencePath in
            (text, field.isFacet ? paths.path(kind: kind, field: field.name, text: text) : referencePath)
        }
    }

    /// Text, enum and reference values (a reference by its title, with its page), in lists too.
    private static func placeValues(_ value: Value?) -> [(text: String, path: String?)] {
        switch value {
        case .string(let text)?: return text.isEmpty ? [] : [(text, nil)]
        case .object(let reference)?: return reference["title"].map { [($0.text, reference["path"]?.stringValue)] } ?? []
        case .list(let items)?: return items.flatMap { placeValues($0) }
        default: return []
        }
    }

    /// As templates see it: `photo`, `figures` (`name`, `label`, `text`), `place` (`text`, `linked`, `path`),
    /// `tags` (`label`, `values` as `place`),
    /// `rating` (`label`, `text`, `value` for `{{stars(value)}}`, `counted`, `count`). `linked` and `counted` say whether `path` and `count` are there:
    /// Mustache would take a missing one from the card around it (its own `path`).
    var value: Value {
        var fields: OrderedDictionary<String, Value> = ["photo": photo ?? .null]
        fields["figures"] = .list(figures.map { .object(["name": .string($0.name), "label": .string($0.label), "text": .string($0.text)]) })
        fields["place"] = Self.valueList(place)
        fields["tags"] = .list(tags.map { label, values in .object(["label": .string(label), "values": Self.valueList(values)]) })
        fields["rating"] = rating.map { label, text, value, count in
            .object([
                "label": .string(label), "text": .string(text), "value": value, "counted": .bool(count != nil), "count": count.map(Value.int) ?? .null,
            ])
        } ?? .null
        return .object(fields)
    }

    private static func valueList(_ values: [(text: String, path: String?)]) -> Value {
        .list(values.map { text, path in .object(["text": .string(text), "linked": .bool(path != nil), "path": path.map(Value.string) ?? .null]) })
    }
}
