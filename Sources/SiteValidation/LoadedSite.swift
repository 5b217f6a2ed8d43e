import Foundation
import ImageProcessing
import LocatedYAML
import Rendering
import SchemaValidation
import SiteLoader
import SiteModel
import Support

/// Everything read from a site root and checked: config, schemas, listings and templates.
/// Loading reports every problem it finds before giving up, sorted by file and line.
public struct LoadedSite: Sendable {
    public let files: SiteFiles
    public let config: SiteConfig
    public let schemas: [KindSchema]
    /// By kind name, in file order.
    public private(set) var listings: [String: [Listing]]
    /// Every listing's slug, by kind (also those of listing files with errors).
    public private(set) var slugs: [String: Set<String>]
    /// Each kind's listing checker.
    private let validators: [String: ListingValidator]
    /// Free Markdown pages from `content/pages/`, in file order.
    public let pages: [FreePage]
    public let templates: TemplateSet
    /// The images that public fields name, published (variants made or taken from the cache).
    public let images: ImagePublisher.Outcome
    /// The files of `static/`, hidden ones too, which are published as they are at the same paths
    /// (`static/CNAME` at `CNAME`).
    public let staticFiles: [String]
    public private(set) var warnings: [Diagnostic]

    static let configFile = "content/site.yaml"

    /// `baseURL` replaces the configuration's, as the preview server does.
    public init(files: SiteFiles, baseURL: String? = nil) throws(BuildFailure) {
        self.files = files
        var diagnostics: [Diagnostic] = []
        func stopIfErrors() throws(BuildFailure) {
            if diagnostics.hasErrors { throw BuildFailure(diagnostics) }
        }

        // A symbolic link out of content/, templates/ or static/ could publish any file on the machine: stop first.
        let content = files.contents(of: "content")
        let statics = files.contents(of: "static", includingHidden: true)
        diagnostics += content.problems + files.entryProblems(under: "templates") + statics.problems
        try stopIfErrors()

        // Site configuration: nothing else can be read without its list of kinds.
        var config = try Self.config(files)
        if let baseURL { config.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/" }

        let schemas = Self.loadSchemas(files, config: config, diagnostics: &diagnostics)
        diagnostics += Self.kindsLeftOut(content, files: files, config: config)
        try stopIfErrors()

        // Listings, parsed and checked across all cores.
        let mediaFiles = Set(content.files(under: "content/media").map { String($0.dropFirst("content/media/".count)) })
        let validators = Dictionary(uniqueKeysWithValues: schemas.map { ($0.name, ListingValidator(
            schema: $0, mediaFiles: mediaFiles, markdown: config.markdown, sitePath: config.basePath, allowRawHTML: config.allowRawHTML)) })
        let (listings, failed, failedReferences) = Self.loadListings(files, content, schemas: schemas, validators: validators, diagnostics: &diagnostics)
        // A kind with `pages: false` writes nothing at /<kind>/.
        let kindFolders = schemas.filter(\.hasPages).map(\.name)
        let (pages, pageProblems) = Self.loadPages(
            files, content.files(under: "content/pages", extensions: ["md", "markdown"]), kinds: kindFolders, markdown: config.markdown, sitePath: config.basePath,
            allowRawHTML: config.allowRawHTML)
        diagnostics += pageProblems
        diagnostics += Self.staticFilesTaken(statics.files, kinds: kindFolders, pages: pages) + statics.files.compactMap(files.sizeProblem)
        // Each kind's slugs, then every listing's references to them, on every core: 430,000 listings at 10× L.
        let slugs = Dictionary(uniqueKeysWithValues: Array(listings).parallelMap { kind, listings in (kind, Set(listings.map(\.slug))) })
            .merging(failed) { $0.union($1) }
        let locator = Self.fieldLocator(files, validators)
        diagnostics += Self.duplicateSlugs(in: listings, locator: locator)
        diagnostics += Self.reservedSlugs(in: listings, schemas: schemas, locator: locator)
        let everyListing = Array(listings.values.joined())
        diagnostics += Self.referencesToNothing(everyListing, failedReferences, schemas, slugs: slugs)

        // Images: checked and processed across all cores, or taken from the cache; reported where fields name them.
        let images = ImagePublisher(files: files, settings: config.images).publish(everyListing.parallelFlatMap(\.media))
        diagnostics += images.problems

        // Templates are checked in the same run, so one build reports content and template errors together.
        let templates = Self.checkedTemplates(files, forPages: !pages.isEmpty, schemas: schemas, language: config.language, diagnostics: &diagnostics)
        if let templates, config.map != nil { diagnostics += Self.mapsWithoutTemplate(schemas, templates) }
        try stopIfErrors()

        self.config = config
        self.schemas = schemas
        self.listings = listings
        self.slugs = slugs
        self.validators = validators
        self.pages = pages
        self.staticFiles = statics.files
        self.templates = templates!
        self.images = images
        self.warnings = diagnostics.sorted()
    }

    /// Every kind's schema, then what derived fields say about other kinds.
    private static func loadSchemas(_ files: SiteFiles, config: SiteConfig, diagnostics: inout [Diagnostic]) -> [KindSchema] {
        var schemas: [KindSchema] = []
        for kind in config.kinds {
            let file = "content/schemas/\(kind).yaml"
            do throws(Diagnostic) {
                guard files.exists(file) else {
                    throw .error(at: kindsSettingLocation(files, naming: kind), "kind '\(kind)' has no schema; expected \(file)")
                }
                let (schema, problems) = decodeKindSchema(
                    try parseYAML(try files.read(file), file: file), kind: kind, file: file, knownKinds: config.kinds,
                    reservedFacetNames: Outputs.reservedFacetNames)
                diagnostics += problems
                if let schema { schemas.append(schema) }
            } catch {
                diagnostics.append(error)
            }
        }
        diagnostics += checkDerivedFields(schemas)
        diagnostics += contactKindsWithoutPages(config.contact, schemas: schemas)
        return schemas
    }

    /// A schema or a folder of listings for a kind that `kinds:` in site.yaml does not name: without this, the
    /// build would leave the kind out without a word.
    private static func kindsLeftOut(_ content: SiteFiles.FolderContents, files: SiteFiles, config: SiteConfig) -> [Diagnostic] {
        let kindsAt = kindsSettingLocation(files)
        let setting = "site.yaml's kinds: (\(kindsAt.file):\(kindsAt.line):\(kindsAt.column))"
        var problems: [Diagnostic] = []
        let schemaFiles = content.files(under: "content/schemas", extensions: ["yaml", "yml"])
        for file in schemaFiles {
            let parts = file.split(separator: "/")
            guard parts.count == 3, let kind = parts[2].split(separator: ".").first.map(String.init), !config.kinds.contains(kind) else { continue }
            problems.append(.error(
                at: SourceLocation(file: file), "kind '\(kind)' has a schema but is not in \(setting); add it or remove the schema"))
        }
        let notKinds: Set<String> = ["schemas", "media", "pages"]
        var folders: [String: String] = [:]
        for file in content.files(under: "content", extensions: ["yaml", "yml"]) {
            // Split as bytes, and only as far as needed: this runs over every listing file.
            let parts = file.utf8.split(separator: UInt8(ascii: "/"), maxSplits: 2)
            guard parts.count == 3, !parts[2].contains(UInt8(ascii: "/")) else { continue }
            let folder = String(decoding: parts[1], as: UTF8.self)
            // A folder whose kind has a schema is named by the schema's error.
            guard !config.kinds.contains(folder), !notKinds.contains(folder), folders[folder] == nil,
                !schemaFiles.contains(where: { $0.hasPrefix("content/schemas/\(folder).") })
            else { continue }
            folders[folder] = file
        }
        for (kind, file) in folders.sorted(by: { $0.key < $1.key }) {
            problems.append(.error(
                at: SourceLocation(file: file),
                "content/\(kind)/ holds listings of a kind '\(kind)' that is not in \(setting); add it (with content/schemas/\(kind).yaml) or move the folder out of content/"))
        }
        return problems
    }

    /// Where site.yaml sets `kinds:` (its value), or names `kind` in it, for messages; the file's start if it
    /// cannot be found.
    private static func kindsSettingLocation(_ files: SiteFiles, naming kind: String? = nil) -> SourceLocation {
        let root = try? parseYAML(try files.read(configFile), file: configFile)
        guard case .mapping(let pairs)? = root?.content, let kinds = pairs.first(where: { $0.name == "kinds" })?.value else {
            return SourceLocation(file: configFile)
        }
        let named = kind.flatMap { kind -> YAMLNode? in
            guard case .sequence(let items) = kinds.content else { return nil }
            return items.first { $0.scalar == kind }
        }
        let node = named ?? kinds
        return SourceLocation(file: configFile, line: node.line, column: node.column)
    }

    /// A file of `static/` where the site's own go: a kind's or a page's folder, one of the site's folders
    /// (`api/`, `assets/`) or a file it writes at the top (`index.html`, `robots.txt`), or under a name the
    /// build keeps for its own markers.
    private static func staticFilesTaken(_ files: [String], kinds: [String], pages: [FreePage]) -> [Diagnostic] {
        files.compactMap { file in
            let path = String(file.dropFirst("static/".count))
            guard let taker = staticTaker(of: path, kinds: kinds, pages: pages) else { return nil }
            return .error(at: SourceLocation(file: file), "\(file) would be published at /\(path), but \(taker); move or rename it")
        }
    }

    /// What takes a path below the output that a file of `static/` would, and where; nil when nothing does.
    private static func staticTaker(of path: String, kinds: [String], pages: [FreePage]) -> String? {
        siteTaker(of: path.lowercased(), kinds: kinds, pages: pages).map { taker in
            // The site's own names are lower case; a disk or host that ignores case takes `Cleaners/` for them.
            path.lowercased() == path ? taker : taker + ", and names that differ only in case are one on a disk or host that ignores case"
        } ?? reservedName(path)
    }

    /// What the site itself writes at a path in lower case, and where; nil when it writes nothing there.
    private static func siteTaker(of path: String, kinds: [String], pages: [FreePage]) -> String? {
        let first = String(path.prefix { $0 != "/" })
        if kinds.contains(first) { return "the kind '\(first)' is published at /\(first)/" }
        if let page = pages.first(where: { $0.slug == first }) { return "the page \(page.file) is published at /\(first)/" }
        if Outputs.siteFolders.contains(first) { return "the site writes /\(first)/" }
        if !path.contains("/") && Outputs.writesAtTop(path) { return "the site writes /\(path)" }
        return nil
    }

    /// Why a name of `static/` cannot be published, whatever the site writes; nil when it can.
    private static func reservedName(_ path: String) -> String? {
        if path.split(separator: "/").contains(where: { $0.lowercased().hasPrefix(".noticeboard") }) { return "names starting .noticeboard are the build's own" }
        // The output's own checks read its manifest's names as they are written, without JSON's escapes.
        if path.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }) {
            return "a published name may not hold a quote, a backslash or a control character"
        }
        return nil
    }

    /// The contact form is shown on listing pages: a kind with `pages: false` has none to show it on.
    private static func contactKindsWithoutPages(_ contact: ContactSettings?, schemas: [KindSchema]) -> [Diagnostic] {
        guard let contact else { return [] }
        return zip(contact.kinds, contact.kindLocations).compactMap { kind, location in
            guard schemas.first(where: { $0.name == kind })?.hasPages == false else { return nil }
            return .error(at: location, "'contact' names the kind '\(kind)', which has 'pages: false': it has no listing pages to show the form on")
        }
    }

    /// Every listing file, parsed and checked across all cores: the listings by kind in file order, and the
    /// slugs of the files that have errors of their own (a reference to one of them is not reported again).
    private static func loadListings(
        _ files: SiteFiles, _ content: SiteFiles.FolderContents, schemas: [KindSchema], validators: [String: ListingValidator],
        diagnostics: inout [Diagnostic]
    ) -> (listings: [String: [Listing]], failed: [String: Set<String>], failedReferences: [Reference]) {
        let jobs = schemas.flatMap { schema in content.files(under: "content/\(schema.name)", extensions: ["yaml", "yml"]).map { (schema.name, $0) } }
        let readAhead = ReadAhead(jobs.map { files.absolute($0.1) })
        let results = jobs.parallelMap { (kind, file) in
            readAhead.readerStarted()
            return Self.readListing(file, validator: validators[kind]!, files: files)
        }
        readAhead.stop()
        var listings: [String: [Listing]] = [:]
        var failed: [String: Set<String>] = [:]
        var failedReferences: [Reference] = []
        for (checked, (kind, file)) in zip(results, jobs) {
            diagnostics += checked.problems
            if let listing = checked.listing {
                listings[listing.kind, default: []].append(listing)
            } else {
                failed[kind, default: []].insert(Slug.from(fileName: String(file.split(separator: "/").last ?? "")))
                failedReferences += checked.references
            }
        }
        return (listings, failed, failedReferences)
    }

    /// The templates, compiled, with every name they use checked against the kinds' contexts; nil when they
    /// have errors, which go to `diagnostics`.
    private static func checkedTemplates(
        _ files: SiteFiles, forPages: Bool, schemas: [KindSchema], language: String, diagnostics: inout [Diagnostic]
    ) -> TemplateSet? {
        do throws(BuildFailure) {
            let templates = try Self.loadTemplates(files, language: language)
            diagnostics += TemplateNameCheck.problems(sources: templates.sources, schemas: schemas)
            if forPages, !templates.names.contains("page") {
                diagnostics.append(.error(at: SourceLocation(file: "templates/page.mustache"), "missing template: the site has pages in content/pages/, which need templates/page.mustache"))
            }
            return templates
        } catch {
            diagnostics += error.diagnostics
            return nil
        }
    }

    /// With map tiles configured, each kind with `geo` and pages whose theme has no `map` template: it gets no
    /// map page (its GeoJSON is written all the same), which nothing else would say.
    private static func mapsWithoutTemplate(_ schemas: [KindSchema], _ templates: TemplateSet) -> [Diagnostic] {
        schemas.filter { $0.geo != nil && $0.hasPages && !templates.hasMap(forKind: $0.name) }.map { schema in
            .warning(
                at: SourceLocation(file: schema.file),
                "kind '\(schema.name)' has geo and the site has map tiles, but the theme has no templates/map.mustache, so it gets no map "
                    + "page; add one (the example site's theme has it, with assets/map.js and assets/leaflet/)")
        }
    }

    /// The listing read from `file` (`content/cleaners/ana.yaml`), if it is one of the site's listing files.
    public func listing(inFile file: String) -> Listing? {
        let parts = file.split(separator: "/")
        guard parts.count >= 3, parts[0] == "content" else { return nil }
        return listings[String(parts[1])]?.first { $0.file == file }
    }

    /// Takes the kind's listings out of the site, for a build that keeps nothing for the next one: the
    /// listings as read are let go kind by kind, as soon as those made from them are, instead of all at once
    /// after indexing (at 430,000 listings the two generations held together were the build's peak).
    public mutating func takeListings(of kind: String) -> [Listing] {
        listings.removeValue(forKey: kind) ?? []
    }

    /// Lets go of the listings and their slugs, for a build that has made its own from them and keeps nothing
    /// for the next one (`listing(inFile:)`, `titles` and `reread` find none after this).
    public mutating func releaseListings() {
        listings = [:]
        slugs = [:]
    }

    /// The title of every listing, by kind then slug, which references show.
    public var titles: [String: [String: String]] {
        var titles: [String: [String: String]] = [:]
        for schema in schemas {
            for listing in listings[schema.name] ?? [] {
                titles[schema.name, default: [:]][listing.slug] = listing.fields[schema.titleField]?.text ?? listing.slug
            }
        }
        return titles
    }

    /// `content/site.yaml`, checked.
    public static func config(_ files: SiteFiles) throws(BuildFailure) -> SiteConfig {
        let root: YAMLNode?
        do throws(Diagnostic) {
            guard files.exists(configFile) else {
                if let missing = SiteFiles.missingRoot(files.root) { throw missing }
                throw .error(at: SourceLocation(file: configFile), "no site configuration: a Noticeboard site has content/site.yaml; is '\(files.root)' the site's folder? (--root names it; `noticeboard new` makes a site)")
            }
            root = try parseYAML(try files.read(configFile), file: configFile)
        } catch {
            throw BuildFailure([error])
        }
        let (decoded, problems) = decodeSiteConfig(root, file: configFile)
        guard let decoded, !problems.hasErrors else { throw BuildFailure(problems) }
        return decoded
    }

    private static func loadPages(
        _ files: SiteFiles, _ pageFiles: [String], kinds: [String], markdown: MarkdownLimits, sitePath: String, allowRawHTML: Bool
    ) -> ([FreePage], [Diagnostic]) {
        var pages: [FreePage] = []
        var problems: [Diagnostic] = []
        var pageAt: [String: String] = [:]  // the file each page's slug came from
        func taker(of slug: String) -> String? {
            if kinds.contains(slug) { return "the kind '\(slug)'" }
            if Outputs.siteFolders.contains(slug) { return "the site's own files" }
            return pageAt[slug]
        }
        for file in pageFiles {
            let slug = Slug.from(fileName: String(file.split(separator: "/").last ?? ""))
            if let tooLong = Slug.tooLong("the file name", slug: slug) {
                problems.append(.error(at: SourceLocation(file: file), tooLong))
                continue
            }
            if slug.isEmpty {
                problems.append(.error(at: SourceLocation(file: file), "the page's file name has no letter or digit to publish it under; rename the file"))
                continue
            }
            if let taker = taker(of: slug) {
                problems.append(.error(at: SourceLocation(file: file), "the page would be published at /\(slug)/, which is taken by \(taker); rename the file"))
                continue
            }
            pageAt[slug] = file
            do throws(Diagnostic) {
                let (page, found) = decodePage(try files.read(file), file: file, slug: slug, markdown: markdown, sitePath: sitePath, allowRawHTML: allowRawHTML)
                problems += found
                if let page { pages.append(page) }
            } catch {
                problems.append(error)
            }
        }
        return (pages, problems)
    }

    /// Where a listing's file writes a field, read again from the file (see `FieldLocator`).
    public var fieldLocator: FieldLocator { Self.fieldLocator(files, validators) }

    private static func fieldLocator(_ files: SiteFiles, _ validators: [String: ListingValidator]) -> FieldLocator {
        FieldLocator { file, kind, field in
            guard let validator = validators[kind], let bytes = try? files.read(file) else { return nil }
            return validator.location(of: field, in: try? parseYAML(bytes, file: file), file: file)
        }
    }

    /// Two files of one kind may not share a slug (e.g. `Ana Murphy.yaml` and `ana-murphy.yaml`, or a file
    /// whose `slug:` line gives another's), reported at the later file's `slug:` line when it has one. Each
    /// kind's listings come in the order of their files, as they were read.
    private static func duplicateSlugs(in listings: [String: [Listing]], locator: FieldLocator) -> [Diagnostic] {
        Array(listings.values).parallelMap { kindListings in
            var problems: [Diagnostic] = []
            var firstFile: [String: String] = [:]
            firstFile.reserveCapacity(kindListings.count)
            for listing in kindListings {
                if let first = firstFile[listing.slug] {
                    let line = locator.written("slug", in: listing)
                    let fix = line == nil ? "rename one of the two files" : "change one of the two slugs"
                    problems.append(.error(
                        at: line ?? SourceLocation(file: listing.file),
                        "\(first) already gives the slug '\(listing.slug)' (the listing's web address); \(fix)"))
                } else {
                    firstFile[listing.slug] = listing.file
                }
            }
            return problems
        }.flatMap { $0 }
    }

    /// A listing's page may not take the URL of its kind's pagination or facet pages.
    private static func reservedSlugs(in listings: [String: [Listing]], schemas: [KindSchema], locator: FieldLocator) -> [Diagnostic] {
        schemas.flatMap { schema in
            let reserved = Outputs.kindFolders(facets: schema.facets)
            return (listings[schema.name] ?? []).filter { reserved.contains($0.slug) }.map { listing -> Diagnostic in
                let line = locator.written("slug", in: listing)
                return .error(
                    at: line ?? SourceLocation(file: listing.file),
                    "the slug '\(listing.slug)' is taken by the \(schema.name) kind's own pages (/\(schema.name)/\(listing.slug)/); \(line == nil ? "rename the file" : "choose another slug")")
            }
        }
    }

    /// The references to listings that do not exist: of the listings, of those with other errors (`failed`), and
    /// of the schemas' defaults.
    private static func referencesToNothing(_ listings: [Listing], _ failed: [Reference], _ schemas: [KindSchema], slugs: [String: Set<String>]) -> [Diagnostic] {
        listings.parallelFlatMap { danglingReferences($0.references, slugs: slugs) } + danglingReferences(failed, slugs: slugs)
            + danglingReferences(schemas.flatMap { $0.fields.flatMap(\.defaultReferencesWithin) }, slugs: slugs, inDefaults: true)
    }

    /// The references, of a listing or of the schemas' defaults (`inDefaults`), to listings that do not exist.
    private static func danglingReferences(_ references: [Reference], slugs: [String: Set<String>], inDefaults: Bool = false) -> [Diagnostic] {
        references.filter { !(slugs[$0.kind]?.contains($0.slug) ?? false) }.map { reference in
            let field = (inDefaults ? "the default of " : "") + "'\(display(reference.fieldPath))'"
            return .error(
                at: reference.location,
                reference.isPrivate
                    ? "\(field) refers to a listing that is not in content/\(reference.kind)/ (the slug is not shown: the field is private)"
                    : "\(field) refers to '\(reference.slug)', but there is no content/\(reference.kind)/\(reference.slug).yaml")
        }
    }

    /// One listing file, parsed and checked against its kind's schema.
    private static func readListing(_ file: String, validator: ListingValidator, files: SiteFiles) -> ListingValidator.Checked {
        func failed(_ problem: Diagnostic) -> ListingValidator.Checked { .init(listing: nil, problems: [problem], references: []) }
        let slug = Slug.from(fileName: String(file.split(separator: "/").last ?? ""))
        guard !slug.isEmpty else {
            return failed(.error(at: SourceLocation(file: file), "the file name gives no usable slug; name listing files with letters or digits, e.g. ana-murphy.yaml"))
        }
        if let tooLong = Slug.tooLong("the file name", slug: slug) { return failed(.error(at: SourceLocation(file: file), tooLong)) }
        do throws(Diagnostic) {
            return validator.check(try parseYAML(try files.read(file), file: file), file: file, slug: slug)
        } catch {
            return failed(error)
        }
    }

    /// Reads one of the site's listing files again after it was edited, and checks it as a build would
    /// (its references included): the listing, or the errors that stop the build. On success the site holds
    /// the new listing, and the file's warnings replace its old ones. Read through the `files` of the build
    /// that rereads it, which resolved the site's top folders afresh.
    public mutating func reread(_ listing: Listing, from files: SiteFiles) throws(BuildFailure) -> Listing {
        let checked = Self.readListing(listing.file, validator: validators[listing.kind]!, files: files)
        let diagnostics = (checked.problems + Self.danglingReferences(checked.references, slugs: slugs)).sorted()
        guard let read = checked.listing, !diagnostics.hasErrors, let index = listings[listing.kind]?.firstIndex(where: { $0.file == listing.file }) else {
            throw BuildFailure(diagnostics)
        }
        listings[listing.kind]![index] = read
        warnings = (warnings.filter { $0.location?.file != listing.file } + diagnostics).sorted()
        return read
    }

    private static func loadTemplates(_ files: SiteFiles, language: String) throws(BuildFailure) -> TemplateSet {
        var sources: [String: (file: String, text: String)] = [:]
        var problems: [Diagnostic] = []
        for file in files.files(under: "templates", extensions: ["mustache"]) {
            let name = String(file.dropFirst("templates/".count).dropLast(".mustache".count))
            do throws(Diagnostic) {
                let bytes = try files.read(file)
                if let (offset, byte) = TextPosition.firstInvalidUTF8(in: bytes) {
                    let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
                    throw .error(at: SourceLocation(file: file, line: line, column: column), TextPosition.notUTF8Message(offset: offset, byte: byte))
                }
                let text = String(decoding: bytes, as: UTF8.self)
                sources[name] = (file, text)
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw BuildFailure(problems) }
        return try TemplateSet(sources: sources, language: language)
    }
}
