import CatalogueIndex
import OrderedCollections
import SiteModel

/// Turns the catalogue into output files: HTML pages through the templates, JSON for apps.
public struct SiteRenderer: Sendable {
    public let catalogue: Catalogue
    public let templates: TemplateSet
    private let contexts: PageContexts

    public init(catalogue: Catalogue, templates: TemplateSet) {
        self.catalogue = catalogue
        self.templates = templates
        self.contexts = PageContexts(catalogue: catalogue)
    }

    /// Every page and feed. Listing pages are independent of each other and render across all cores.
    public func render() -> [OutputFile] {
        var files: [OutputFile] = [renderHome()]
        for collection in catalogue.kinds {
            files.append(renderIndex(collection))
            files.append(OutputFile(path: "api/\(collection.schema.name).json", contents: .bytes(kindJSON(collection))))
            let schema = collection.schema
            let perListing = collection.listings.parallelMap { listing in
                [
                    renderListing(listing, in: collection),
                    OutputFile(path: "api/\(schema.name)/\(listing.slug).json", contents: .bytes(JSONWriter.bytes(.object(listing.fields)))),
                ]
            }
            files.append(contentsOf: perListing.joined())
        }
        return files
    }

    func renderHome() -> OutputFile {
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: nil),
            "page": contexts.page(title: catalogue.site.title, outputPath: "", description: catalogue.site.description),
            "is_home": .bool(true),
            "kinds": .list(catalogue.kinds.map(contexts.kindValue)),
            "newest": .list(catalogue.newest.compactMap { listing in
                catalogue.kinds.first { $0.schema.name == listing.kind }.map { contexts.card(listing, schema: $0.schema) }
            }),
        ])
        return page(at: "", template: "home", context: context, kind: nil)
    }

    func renderIndex(_ collection: KindCollection) -> OutputFile {
        let schema = collection.schema
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: schema.name),
            "page": contexts.page(title: schema.title, outputPath: collection.outputPath, description: schema.description),
            "kind": contexts.kindValue(collection),
            "listings": .list(collection.listings.map { contexts.card($0, schema: schema) }),
        ])
        return page(at: collection.outputPath, template: templates.name("list", forKind: schema.name), context: context, kind: schema.name)
    }

    func renderListing(_ listing: Listing, in collection: KindCollection) -> OutputFile {
        let schema = collection.schema
        let title = contexts.title(of: listing, schema: schema)
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: schema.name),
            "page": contexts.page(title: title, outputPath: listing.outputPath, description: "\(schema.singular): \(title)"),
            "kind": contexts.kindValue(collection),
            "listing": .object(listing.fields),
            "display": .object(listing.display.mapValues(Value.string)),
            "fields": contexts.fieldRows(listing, schema: schema),
        ])
        return page(at: listing.outputPath, template: templates.name("listing", forKind: schema.name), context: context, kind: schema.name)
    }

    /// Renders the page's own template, then the layout around it; pretty URLs get an `index.html`.
    private func page(at outputPath: String, template: String, context: Value, kind: String?) -> OutputFile {
        let body = templates.render(context, with: template)
        guard case .object(var fields) = context else { return OutputFile(path: outputPath + "index.html", text: body) }
        fields["content"] = .html(body)
        return OutputFile(path: outputPath + "index.html", text: templates.render(.object(fields), with: "layout"))
    }

    func kindJSON(_ collection: KindCollection) -> [UInt8] {
        let schema = collection.schema
        let document: Value = .object([
            "kind": .string(schema.name),
            "title": .string(schema.title),
            "url": .string(catalogue.site.url(collection.outputPath)),
            "count": .int(Int64(collection.listings.count)),
            "items": .list(collection.listings.map { .object($0.fields) }),
        ])
        return JSONWriter.bytes(document)
    }
}
