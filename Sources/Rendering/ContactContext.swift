import OrderedCollections
import SiteModel

extension PageContexts {
    /// The `contact` value of a listing page: where the contact-request form posts and what names the
    /// listing in it (kind and slug, never a private field). Null for a kind the site's `contact` leaves out.
    func contact(_ listing: Listing, schema: KindSchema) -> Value {
        guard let settings = site.contact, settings.kinds.contains(schema.name) else { return .null }
        return .object([
            "endpoint": .string(settings.endpoint),
            "kind": .string(schema.name),
            "slug": .string(listing.slug),
            "title": .string(title(of: listing, schema: schema)),
            "url": listing.fields["url"] ?? .null,
        ])
    }
}
