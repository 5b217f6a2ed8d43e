import Foundation

/// Writes the same catalogue as a Hugo `content/` folder for the side-by-side benchmark (`bench/hugo/`):
/// one Markdown page per listing (its Markdown field as the body, its other fields as front matter), and
/// one unrendered page per quote so Hugo's taxonomy pages list quotes as Noticeboard's facet pages do.
/// Joins Noticeboard derives at build time (a cleaner's reviews and rating, an owner's items) are done
/// here, before Hugo's clock starts, which favours Hugo.
public enum HugoWriter {
    /// Refuses a Hugo site that has a `content/` or `static/media/` already.
    public static func checkFree(_ root: String) throws(NewFolder) {
        try NewFolder.check(root + "/content")
        try NewFolder.check(root + "/static/media")
    }

    /// Writes `content/` and `static/media/` below `root`, which must already hold the Hugo site's config, and
    /// neither of them yet, unless empty (`NewFolder`).
    public static func write(_ catalogue: SyntheticCatalogue, to root: String) throws {
        try checkFree(root)
        var files: [(path: String, text: String)] = SiteWriter.mediaFiles.map { ("static/media/" + $0.path, $0.text) }
        for (kind, title) in [("cleaners", "Cleaners"), ("rentals", "Rental items"), ("owners", "Owners"), ("quotes", "Quotes")] {
            files.append(("content/\(kind)/_index.md", page([("title", .text(title))], body: "")))
        }
        // Quotes are pages only so that taxonomies can list them; their section gets no pages of its own.
        files.append(("content/quote-entries/_index.md", page([("_build", .object([("render", .bare("never"))]))], body: "")))
        let reviews = Dictionary(grouping: catalogue.listings["reviews"] ?? []) { $0["cleaner"]?.text ?? "" }
        for cleaner in catalogue.listings["cleaners"] ?? [] {
            var front = frontMatter(cleaner, title: "name", date: "joined", skipping: ["bio", "phone", "email", "county", "languages"])
            front += [("cleaner_county", .list([cleaner["county"]!])), ("cleaner_language", cleaner["languages"]!)]
            let own = reviews[cleaner.slug] ?? []
            if !own.isEmpty {
                let stars = own.compactMap { $0["stars"]?.text.flatMap(Double.init) }
                front.append(("rating", .bare(String(format: "%.1f", stars.reduce(0, +) / Double(stars.count)))))
                front.append(("reviews", .list(own.map { .object($0.fields.filter { $0.name != "reviewer_email" }) })))
            }
            files.append(("content/cleaners/\(cleaner.slug).md", page(front, body: cleaner["bio"]?.text ?? "")))
        }
        let items = Dictionary(grouping: catalogue.listings["rentals"] ?? []) { $0["owner"]?.text ?? "" }
        for owner in catalogue.listings["owners"] ?? [] {
            var front = frontMatter(owner, title: "name", date: "joined", skipping: ["about", "phone", "email"])
            front.append(("items", .list((items[owner.slug] ?? []).map { item in
                .object([("title", item["title"]!), ("slug", .text(item.slug)), ("category", item["category"]!), ("city", item["city"]!)])
            })))
            files.append(("content/owners/\(owner.slug).md", page(front, body: owner["about"]?.text ?? "")))
        }
        for rental in catalogue.listings["rentals"] ?? [] {
            var front = frontMatter(rental, title: "title", date: "listed", skipping: ["description", "pickup_address", "category", "city", "condition"])
            front += [
                ("rental_category", .list([rental["category"]!])), ("rental_city", .list([rental["city"]!])),
                ("rental_condition", .list([rental["condition"]!])),
            ]
            files.append(("content/rentals/\(rental.slug).md", page(front, body: rental["description"]?.text ?? "")))
        }
        for collection in catalogue.listings["quotes"] ?? [] {
            let front = frontMatter(collection, title: "title", date: "added", skipping: ["description"])
            files.append(("content/quotes/\(collection.slug).md", page(front, body: collection["description"]?.text ?? "")))
            guard case .list(let quotes)? = collection["quotes"] else { continue }
            for (index, quote) in quotes.enumerated() {
                guard case .object(let fields) = quote else { continue }
                let entry = SyntheticListing(kind: "quote-entries", slug: "\(collection.slug)-\(index)", fields: fields)
                var front = frontMatter(entry, title: "source", date: nil, skipping: ["category", "source"])
                front += [
                    ("_build", .object([("render", .bare("never"))])),
                    ("quote_category", .list([entry["category"]!])), ("quote_source", .list([entry["source"]!])),
                    ("collection", .object([("title", collection["title"]!), ("slug", .text(collection.slug))])),
                ]
                files.append(("content/quote-entries/\(entry.slug).md", page(front, body: "")))
            }
        }
        try SiteWriter.writeFiles(files, under: root)
    }

    /// Hugo's `title` and `date`, then the listing's fields less the body and private ones.
    static func frontMatter(_ listing: SyntheticListing, title: String, date: String?, skipping: Set<String>) -> [(name: String, value: SyntheticValue)] {
        var front: [(name: String, value: SyntheticValue)] = [("title", listing[title] ?? .text(listing.slug))]
        if let date, let value = listing[date] { front.append(("date", value)) }
        return front + listing.fields.filter { !skipping.contains($0.name) && $0.name != title }
    }

    static func page(_ front: [(name: String, value: SyntheticValue)], body: String) -> String {
        "---\n" + YAMLEmitter.document(front) + "---\n" + body
    }
}
