import Enrichment
import SiteModel

extension Catalogue {
    /// The catalogue with a listing's new values (as enrichment made them) in place of its old ones, its
    /// derived fields computed again; nil when that is not all that changes, and the catalogue must be
    /// built anew: when the listing is new, belongs to a collection kind (its entries are listings too),
    /// or has another title, sort value, facet value or date (which would move it, or pages listing it, or
    /// change what refers to it), or when some kind's derived fields read its kind.
    ///
    /// This is what makes an edit in `serve` cost the pages it touches rather than the whole site: the
    /// kind's order, facets and counts, and every other kind, stay exactly as they were.
    /// Throws, as a whole build would, when a derived value of the listing passes `NumberLimit`. Adds the
    /// listing's position in its kind's list to `edited`.
    public func replacing(_ enriched: Listing, formatter: DisplayFormatter, edited: inout EditedPositions) throws(BuildFailure) -> Catalogue? {
        guard let kindIndex = kinds.firstIndex(where: { $0.schema.name == enriched.kind }) else { return nil }
        let collection = kinds[kindIndex], schema = collection.schema
        guard schema.entriesField == nil, !kinds.contains(where: { DerivedFieldOrder.kindsRead(by: $0.schema).contains(schema.name) }),
            let position = collection.listings.firstIndex(where: { $0.slug == enriched.slug })
        else { return nil }
        let old = collection.listings[position]
        var listing = enriched
        do throws(Diagnostic) {
            let fields = derivationRuns(kinds.map(\.schema)).filter { $0.kind == schema.name }.flatMap(\.fields)
            try addDerivedFields(fields, to: &listing, schema: schema, sources: sources, buildDate: buildDate, formatter: formatter, layouts: FieldLayouts())
        } catch {
            throw BuildFailure([error])
        }
        let sortFields = schema.sort.isEmpty ? [schema.titleField] : schema.sort.map(\.field)
        let fixed = [schema.titleField] + sortFields + schema.facets + (schema.dateField.map { [$0] } ?? [])
        guard fixed.allSatisfy({ old.fields[$0] == listing.fields[$0] }) else { return nil }

        var listings = collection.listings
        listings[position] = listing
        // A kind with entries is never edited in place (the guard above), so every facet is over the listings.
        var updatedKinds = kinds
        updatedKinds[kindIndex] = KindCollection(
            schema: schema, listings: listings, entries: collection.entries, facets: collection.facets.map { $0.over(listings) })
        let newest = newest.map { $0.kind == listing.kind && $0.slug == listing.slug ? listing : $0 }
        edited.insert(position, ofKind: schema.name)
        return Catalogue(
            site: site, buildDate: buildDate, kinds: updatedKinds, newest: newest, pages: pages, collation: collation, referrers: referrers,
            locator: locator)
    }

    /// Makes the tables of referrers that edits in place read (`ReferrerIndex`), which the first edit would
    /// otherwise make: at 10× L, 0.2 s of it.
    public func prepareReferrers() {
        for collection in kinds {
            for derived in collection.schema.derived where derived.operation.gathers {
                guard let from = derived.from, let via = derived.via, let listings = self.collection(from)?.listings else { continue }
                referrers.prepare(listings, kind: from, field: via)
            }
        }
    }

    /// Derived fields read the catalogue's own listings: referrers in their kind's order (`ReferrerIndex`),
    /// lookups by slug.
    private var sources: DerivationSources {
        let kinds = kinds, index = referrers
        return DerivationSources(
            referrers: { from, via, slug in
                guard let listings = kinds.first(where: { $0.schema.name == from })?.listings else { return [] }
                return index.positions(of: slug, in: listings, kind: from, field: via).map { listings[$0] }
            },
            lookup: { kind, slug in kinds.first { $0.schema.name == kind }?.listings.first { $0.slug == slug } },
            collation: collation, locator: locator)
    }
}
