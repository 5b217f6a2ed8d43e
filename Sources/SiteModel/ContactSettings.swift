/// How visitors reach the providers of some kinds (`contact:` in `content/site.yaml`): a contact-request form
/// on each of their listing pages, posted to an endpoint the publisher runs or rents (a form service or a
/// relay). The listing's private fields are never part of it: the endpoint knows the listing by kind and slug.
public struct ContactSettings: Sendable, Hashable {
    /// An absolute https URL, an http URL on the publisher's own machine (for trying a relay locally), or a
    /// path on the site's host such as `/contact/send`.
    public var endpoint: String
    /// The kinds whose listing pages show the form.
    public var kinds: [String]
    /// Where `site.yaml` names each of `kinds`, for errors found once the kinds' schemas are read.
    public var kindLocations: [SourceLocation]

    public init(endpoint: String, kinds: [String], kindLocations: [SourceLocation] = []) {
        self.endpoint = endpoint
        self.kinds = kinds
        self.kindLocations = kindLocations
    }
}
