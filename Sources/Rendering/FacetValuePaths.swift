import CatalogueIndex
import SiteModel

/// Each facet value's page as pages link it (`/cleaners/county/cork/`), by kind, field and value text, made
/// once for a render from the catalogue's facets: every card and listing page links its facet values, and
/// making each link's slug again took a share of the render. A text no facet holds (none, in a whole build)
/// gets its path made as before.
struct FacetValuePaths: Sendable {
    private let site: SiteConfig
    private let paths: [String: [String: [String: String]]]

    init(_ catalogue: Catalogue) {
        site = catalogue.site
        var paths: [String: [String: [String: String]]] = [:]
        for collection in catalogue.kinds {
            let kind = collection.schema.name
            for facet in collection.facets {
                let field = facet.field.name
                paths[kind, default: [:]][field] = Dictionary(facet.values.map { value in
                    (value.text, Self.make(kind: kind, field: field, text: value.text, site: catalogue.site))
                }) { first, _ in first }
            }
        }
        self.paths = paths
    }

    func path(kind: String, field: String, text: String) -> String {
        paths[kind]?[field]?[text] ?? Self.make(kind: kind, field: field, text: text, site: site)
    }

    private static func make(kind: String, field: String, text: String, site: SiteConfig) -> String {
        site.path(Facet.valueOutputPath(kind: kind, field: field, text: text))
    }
}
