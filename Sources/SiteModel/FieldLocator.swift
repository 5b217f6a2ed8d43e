/// Finds where a listing's file writes one of its top-level values, for the few errors found after validation
/// (a derived sum past the limit, two facet values with one URL, a slug taken twice). Listings do not carry
/// their values' places: kept from reading until the source details were let go, those were 131 MB of a
/// 430,000-listing build's heap, for errors most builds never have. The file is read again when one is reported.
public struct FieldLocator: Sendable {
    /// The place of `field`'s value in `file`, a listing of `kind`; nil when the file does not write it.
    private let find: @Sendable (_ file: String, _ kind: String, _ field: String) -> SourceLocation?

    public init(_ find: @escaping @Sendable (_ file: String, _ kind: String, _ field: String) -> SourceLocation?) {
        self.find = find
    }

    /// Where `listing`'s file writes `field`, or the top of the file when it does not (a default, a private field).
    public func location(of field: String, in listing: Listing) -> SourceLocation {
        written(field, in: listing) ?? SourceLocation(file: listing.file)
    }

    /// Where `listing`'s file writes `field` itself; nil when it does not.
    public func written(_ field: String, in listing: Listing) -> SourceLocation? {
        find(listing.file, listing.kind, field)
    }

    /// For listings with no file to read (made in memory, or without their source details): the file alone.
    public static let fileOnly = FieldLocator { _, _, _ in nil }
}
