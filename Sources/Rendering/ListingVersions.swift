import CatalogueIndex
import SiteModel
import Support

/// Each listing's `updated` date: the build date on which its published fields last changed. The last
/// build's record gives each listing's digest and date; a listing whose fields encode to the same digest
/// keeps its date, any other (a new one too) gets this build's date. Made after indexing, before rendering, so the record flows one way: last
/// record → versions → documents → this build's record.
public struct ListingVersions: Sendable {
    public struct Version: Equatable, Sendable {
        public var updated: CalendarDate
        /// SHA-256 of the listing's published fields as JSON, without `updated`.
        public var sha256: SHA256.Digest

        public init(updated: CalendarDate, sha256: SHA256.Digest) {
            self.updated = updated
            self.sha256 = sha256
        }
    }

    /// Every listing's.
    public let table: VersionTable
    let buildDate: CalendarDate
    /// By kind, its listings' newest `updated`: the `lastmod` of the pages that show the whole kind.
    let newestUpdates: [String: CalendarDate]

    /// With `edited` (an in-place edit), only those listings are encoded and dated again; every other keeps
    /// the last record's version.
    public init(catalogue: Catalogue, previous: VersionTable, edited: EditedPositions? = nil) {
        let buildDate = catalogue.buildDate
        var table = edited == nil ? VersionTable() : previous
        for collection in catalogue.kinds {
            let kind = collection.schema.name, listings = collection.listings
            // In place, only the edited listings are read, by position.
            if let edited, edited.positions(ofKind: kind) == nil { continue }
            let positions = edited?.positions(ofKind: kind) ?? Array(listings.indices)
            // The encoded fields are not kept: the documents encode them again as they are written (at XL they
            // held 1.1 GB through rendering).
            let made = positions.parallelMap { position -> Version in
                let listing = listings[position]
                let digest = Self.digest(of: listing)
                let last = previous[kind: kind, slug: listing.slug]
                return Version(updated: last?.sha256 == digest ? last!.updated : buildDate, sha256: digest)
            }
            if edited == nil {
                table.setKind(kind, zip(positions, made).map { VersionTable.Entry(slug: listings[$0].slug, version: $1) })
            } else {
                for (position, version) in zip(positions, made) { table[kind: kind, slug: listings[position].slug] = version }
            }
        }
        self.table = table
        self.buildDate = buildDate
        newestUpdates = Dictionary(uniqueKeysWithValues: catalogue.kinds.compactMap { collection in
            table.newestUpdate(ofKind: collection.schema.name).map { (collection.schema.name, $0) }
        })
    }

    /// The digest a version holds: of the listing's published fields as JSON.
    public static func digest(of listing: Listing) -> SHA256.Digest {
        JSONWriter.encoded(.object(listing.fields)).sha256
    }

    /// The build date on which the listing's published fields last changed; a collection's entry (see
    /// `entryListings`) has its listing's.
    func updated(_ listing: Listing, isEntry: Bool = false) -> CalendarDate {
        let slug = isEntry ? listing.fields["collection"]?.objectValue?["slug"]?.text ?? listing.slug : listing.slug
        return updated(kind: listing.kind, slug: slug)
    }

    /// The build date on which the listing `slug` of `kind` last changed.
    func updated(kind: String, slug: String) -> CalendarDate {
        table[kind: kind, slug: slug]?.updated ?? buildDate
    }
}
