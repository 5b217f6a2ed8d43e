import CatalogueIndex
import OrderedCollections
import SiteModel

/// The archive of a kind's daily picks: a page per day at `<kind>/daily/YYYY-MM-DD/` and an index at
/// `<kind>/daily/`, for the build date and the `DailyPick.archiveDays` days before it. Rendered with the kind's
/// `daily` and `daily_index` templates; a kind whose theme has none gets no archive.
extension SiteRenderer {
    /// The archive's picks, newest first; empty when the kind has no daily picks or no archive templates.
    func archivedPicks(_ collection: KindCollection) -> [DailyPicks.Pick] {
        guard hasArchive(collection.schema) else { return [] }
        let first = catalogue.buildDate.adding(days: -DailyPick.archiveDays)
        return DailyPicks(collection: collection, from: first, days: DailyPick.archiveDays + 1).picks.reversed()
    }

    func dailyPages(_ collection: KindCollection) -> [Page] {
        let picks = archivedPicks(collection)
        let schema = collection.schema
        let template = templates.name("daily", forKind: schema.name)
        return picks.indices.map { index in
            let pick = picks[index]
            let path = dailyPath(pick.date, in: collection)
            var context = pageContext(template, site: contexts.siteValue(.inKind(schema.name)), [
                "page": contexts.page(
                    title: "\(schema.title) of the day, \(contexts.dates.text(pick.date))", outputPath: path,
                    description: "The pick of \(contexts.dates.text(pick.date)) from \(schema.title.lowercased())."),
            ])
            context.set("kind", contexts.kindValue(collection))
            context["daily"] = dailyValue(pick, in: collection)
            // Newest first: the day before is the next one in the list.
            context["earlier"] = index + 1 < picks.count ? .string(site.path(dailyPath(picks[index + 1].date, in: collection))) : .null
            context["later"] = index > 0 ? .string(site.path(dailyPath(picks[index - 1].date, in: collection))) : .null
            return page(at: path, template: template, context: context, lastModified: pick.date)
        }
    }

    /// The archive's index: every day it keeps, newest first, with its pick.
    func dailyIndexPage(_ collection: KindCollection) -> Page? {
        let picks = archivedPicks(collection)
        guard let newest = picks.first else { return nil }
        let schema = collection.schema
        let path = collection.outputPath + "daily/"
        let template = templates.name("daily_index", forKind: schema.name)
        var context = pageContext(template, site: contexts.siteValue(.inKind(schema.name)), [
            "page": contexts.page(title: "\(schema.title) of the day: the archive", outputPath: path, description: "Past picks of the day from \(schema.title.lowercased())."),
        ])
        context.set("kind", contexts.kindValue(collection))
        context["days"] = .list(picks.map { pick in
            guard case .object(var fields) = dailyValue(pick, in: collection) else { return .null }
            fields["path"] = .string(site.path(dailyPath(pick.date, in: collection)))
            return .object(fields)
        })
        return page(at: path, template: template, context: context, lastModified: newest.date)
    }

    func hasArchive(_ schema: KindSchema) -> Bool {
        let names = [templates.name("daily", forKind: schema.name), templates.name("daily_index", forKind: schema.name)]
        return schema.daily != nil && names.allSatisfy(templates.names.contains)
    }

    func dailyPath(_ date: CalendarDate, in collection: KindCollection) -> String {
        collection.outputPath + "daily/\(date)/"
    }
}
