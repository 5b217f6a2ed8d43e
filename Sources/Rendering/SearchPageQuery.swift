import Foundation

/// The search page's address with filters, as `assets/search.js` reads it
/// (`/search/?kind=cleaners&county=Cork&sort=hourly_rate`): the page's own parameters, and each facet by its
/// field's name.
enum SearchPageQuery {
    static let kind = "kind", sort = "sort"
    /// The parameters the page reads for itself: the words, a kind, a range, an order. A facet of one of these
    /// names would be read as it, so none may have one (`Outputs.reservedFacetNames`).
    static let ownParameters: Set<String> = ["q", kind, "min", "max", sort]

    /// `?name=value&…`, each value percent-encoded but for URLs' unreserved ASCII characters.
    static func query(_ parameters: [(name: String, value: String)]) -> String {
        "?" + parameters.map { "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? $0.value)" }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
