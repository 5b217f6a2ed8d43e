import Foundation
import LocatedYAML
import SchemaValidation
import SiteModel
import Testing

/// Validation of listings against a kind's schema, on small inline inputs.
@Suite struct SchemaValidationTests {
    static let schemaText = """
        title: Cleaners
        title_field: name
        date_field: joined
        fields:
          name: {type: string, required: true}
          rate: {type: decimal, required: true, minimum: 0, format: currency}
          stars: {type: int, minimum: 1, maximum: 5}
          county: {type: enum, values: [Cork, Dublin]}
          eco: {type: bool, default: false}
          joined: date
          website: url
          photo: image
          languages: {type: list, of: string}
          owner: {type: reference, to: owners}
          address:
            type: object
            fields:
              town: {type: string, required: true}
              eircode: {type: string, private: true}
          bio: markdown
          phone: {type: phone, private: true}
          email: {type: email, private: true}
          notes: {type: markdown, private: true}
        """

    func schema() throws -> KindSchema {
        let node = try parseYAML(Array(Self.schemaText.utf8), file: "content/schemas/cleaners.yaml")
        let (schema, problems) = decodeKindSchema(node, kind: "cleaners", file: "content/schemas/cleaners.yaml", knownKinds: ["cleaners", "owners"], reservedFacetNames: [:])
        #expect(problems.isEmpty, "\(problems)")
        return try #require(schema)
    }

    func validate(_ text: String) throws -> (Listing?, [String]) {
        let validator = ListingValidator(schema: try schema(), mediaFiles: ["cleaners/ana.png"])
        let node = try parseYAML(Array(text.utf8), file: "content/cleaners/ana.yaml")
        let checked = validator.check(node, file: "content/cleaners/ana.yaml", slug: "ana")
        let listing = checked.listing, problems = checked.problems
        return (listing, problems.map(\.description))
    }

    @Test func validListingKeepsSchemaOrderAndDropsPrivateFields() throws {
        let (listing, problems) = try validate("""
            phone: "+353 87 555 0101"
            email: ana@example.net
            name: Ana
            rate: 18.5
            address: {town: Cork, eircode: T12 AB34}
            photo: cleaners/ana.png
            owner: mary-kelly
            """)
        #expect(problems.isEmpty)
        let fields = try #require(listing?.fields)
        #expect(Array(fields.keys) == ["name", "rate", "eco", "photo", "owner", "address"])
        #expect(fields["rate"] == .decimal(FixedDecimal(units: 1850, scale: 2)))
        #expect(fields["eco"] == .bool(false))
        #expect(fields["address"] == .object(["town": .string("Cork")]))
        #expect(listing?.references.map(\.slug) == ["mary-kelly"])
        #expect(listing?.media.map(\.path) == ["cleaners/ana.png"])
        #expect(listing?.media.map { "\($0.location.line):\($0.location.column) \($0.field)" } == ["6:8 photo"])
    }

    /// Where a file writes a public top-level value or its `slug:` line, found again for the errors indexing
    /// finds; a private field's and a default's are not (the listing's file is where those are reported).
    @Test func theValidatorFindsWhereAFileWritesItsOwnValues() throws {
        let file = "content/cleaners/ana.yaml"
        let node = try parseYAML(Array("""
            slug: ana-m
            phone: "+353 87 555 0101"
            name: Ana
            rate:   18.5
            """.utf8), file: file)
        let validator = ListingValidator(schema: try schema(), mediaFiles: [])
        func position(_ field: String) -> String {
            validator.location(of: field, in: node, file: file).map { "\($0.file):\($0.line):\($0.column)" } ?? "not written"
        }
        #expect(position("slug") == "content/cleaners/ana.yaml:1:7")
        #expect(position("name") == "content/cleaners/ana.yaml:3:7")
        #expect(position("rate") == "content/cleaners/ana.yaml:4:9")
        #expect(position("eco") == "not written")
        #expect(position("phone") == "not written")
        #expect(validator.location(of: "name", in: nil, file: file) == nil)
    }

    @Test func everyProblemIsReportedWithItsLocation() throws {
        let (listing, problems) = try validate("""
            name: Ana
            rate: cheap
            stars: 7
            county: Crok
            eco: yes
            joined: 2024-02-30
            website: www.example.org
            photo: cleaners/missing.png
            languages: English
            address: {eircode: X}
            phone: call me
            email: ana-at-example
            colour: blue
            """)
        #expect(listing == nil)
        #expect(problems == [
            "content/cleaners/ana.yaml:2:7: error: 'rate' must be a decimal number such as 18.50, not 'cheap'",
            "content/cleaners/ana.yaml:3:8: error: 'stars' must be at most 5, not 7",
            "content/cleaners/ana.yaml:4:9: error: 'county' must be one of 'Cork', 'Dublin', not 'Crok'; did you mean 'Cork'?",
            "content/cleaners/ana.yaml:5:6: error: 'eco' must be true or false, not 'yes' (write true or false)",
            "content/cleaners/ana.yaml:6:9: error: 'joined' must be a date written YYYY-MM-DD, not '2024-02-30' (written so, but no such day is in the calendar)",
            "content/cleaners/ana.yaml:7:10: error: 'website' must be an absolute http or https URL, not 'www.example.org'",
            "content/cleaners/ana.yaml:8:8: error: 'photo' names content/media/cleaners/missing.png, which does not exist",
            "content/cleaners/ana.yaml:9:12: error: 'languages' must be a list, not 'English'",
            "content/cleaners/ana.yaml:10:10: error: missing required field 'address.town'",
            "content/cleaners/ana.yaml:11:8: error: 'phone' must be a phone number (digits, spaces, dashes or brackets, optional leading +, 7 to 15 digits), not the value given (not shown: the field is private)",
            "content/cleaners/ana.yaml:12:8: error: 'email' must be an email address, not the value given (not shown: the field is private)",
            "content/cleaners/ana.yaml:13:1: error: unknown field 'colour'",
        ])
    }

    /// On a site at a sub-path, a root-relative link in a public Markdown field is warned about at the field;
    /// in a private one, which is never published, it is not, so its URL is never quoted.
    @Test func linksLeavingTheSiteAreWarnedAboutInPublicFieldsOnly() throws {
        let validator = ListingValidator(schema: try schema(), mediaFiles: [], sitePath: "/catalogue/")
        let text = "name: Ana\nrate: 18\nbio: |\n  Hi.\n  See [rules](/rules/).\nnotes: \"[secret](/secret/)\"\n"
        let checked = validator.check(try parseYAML(Array(text.utf8), file: "content/cleaners/ana.yaml"), file: "content/cleaners/ana.yaml", slug: "ana")
        let listing = checked.listing, problems = checked.problems
        #expect(listing != nil)
        #expect(problems.map(\.description) == [
            "content/cleaners/ana.yaml:3:6: warning: 'bio' links to '/rules/' (line 2 of its text), outside the site, which lives at "
                + "/catalogue/; write '/catalogue/rules/' for a page of this site, or the full address for another",
        ])
    }

    /// With raw HTML allowed, a tag the tag filter still escapes is warned about at its public field, naming
    /// its line of the text; never in a private field, which is not published.
    @Test func tagsTheTagFilterEscapesAreWarnedAboutInPublicFields() throws {
        let text = "name: Ana\nrate: 1\nbio: |\n  Hi <b>there</b>.\n  <iframe src=\"https://video.example/\"></iframe>\nnotes: \"<script>x</script>\"\n"
        for allowed in [true, false] {
            let validator = ListingValidator(schema: try schema(), mediaFiles: [], allowRawHTML: allowed)
            let checked = validator.check(try parseYAML(Array(text.utf8), file: "content/cleaners/ana.yaml"), file: "content/cleaners/ana.yaml", slug: "ana")
            let problems = checked.problems
            #expect(problems.map(\.description) == (allowed ? [
                "content/cleaners/ana.yaml:3:6: warning: 'bio' has <iframe> (line 2 of its text), which GitHub Flavored Markdown's tag filter "
                    + "writes out as text even with allow_raw_html, so visitors would see its markup; put what it embeds in a template instead",
            ] : []))
        }
    }

    @Test func missingRequiredFieldPointsAtTheMapping() throws {
        let (_, problems) = try validate("county: Cork\n")
        #expect(problems == [
            "content/cleaners/ana.yaml:1:1: error: missing required field 'name'",
            "content/cleaners/ana.yaml:1:1: error: missing required field 'rate'",
        ])
    }

    /// A required object must hold a value, as a required list or text must: `{}` is as empty as `[]` or `""`.
    @Test func aRequiredObjectMayNotBeEmpty() throws {
        let node = try parseYAML(Array("""
            title: Things
            title_field: name
            fields:
              name: {type: string, required: true}
              address: {type: object, required: true, fields: {street: string, town: string}}
              country: {type: object, required: true, fields: {name: {type: string, default: Ireland}}}
            """.utf8), file: "content/schemas/things.yaml")
        let schema = try #require(decodeKindSchema(node, kind: "things", file: "content/schemas/things.yaml", knownKinds: ["things"], reservedFacetNames: [:]).0)
        let validator = ListingValidator(schema: schema, mediaFiles: [])
        let empty = "content/things/a.yaml:2:10: error: 'address' needs at least one of its fields (street, town)"
        for (address, expected) in [("{}", [empty]), ("{town: ~}", [empty]), ("{town: Cork}", [])] {
            // An object whose field has a default is not empty.
            let listing = try parseYAML(Array("name: A\naddress: \(address)\ncountry: {}\n".utf8), file: "content/things/a.yaml")
            #expect(validator.check(listing, file: "content/things/a.yaml", slug: "a").problems.map(\.description) == expected, "\(address)")
        }
    }

    /// A kind of places whose `geo` names `lat`, a decimal of the default scale, and `lon`, declared as given.
    static func places(lon: String) throws -> (KindSchema?, [Diagnostic]) {
        let node = try parseYAML(Array("""
            title: Places
            title_field: name
            geo: {lat: lat, lon: lon}
            fields:
              name: {type: string, required: true}
              lat: decimal
              lon: \(lon)
            """.utf8), file: "content/schemas/places.yaml")
        return decodeKindSchema(node, kind: "places", file: "content/schemas/places.yaml", knownKinds: ["places"], reservedFacetNames: [:])
    }

    /// The fields `geo` names hold a place's coordinates: a latitude past ±90 or a longitude past ±180 is an error
    /// at the value, as the schema's own bounds would be, and narrower bounds of the schema's stay.
    @Test func coordinatesStayOnTheEarth() throws {
        let schema = try #require(try Self.places(lon: "{type: decimal, minimum: -11, maximum: -5}").0)
        let validator = ListingValidator(schema: schema, mediaFiles: [])
        for (place, expected) in [
            ("lat: 53.3\nlon: -6.2", []),
            ("lat: 95.5\nlon: -6.2", ["content/places/a.yaml:2:6: error: 'lat' must be at most 90, not 95.5"]),
            ("lat: -90.5\nlon: -12", ["content/places/a.yaml:2:6: error: 'lat' must be at least -90, not -90.5", "content/places/a.yaml:3:6: error: 'lon' must be at least -11, not -12"]),
        ] {
            let listing = try parseYAML(Array("name: A\n\(place)\n".utf8), file: "content/places/a.yaml")
            #expect(validator.check(listing, file: "content/places/a.yaml", slug: "a").problems.map(\.description) == expected, "\(place)")
        }
    }

    /// A coordinate kept to a decimal's default 2 places moves a place by up to 556 m (51.5007 is kept as 51.50):
    /// a warning at `geo` says so (a tester's report). A scale written out is the site's choice, even a rough one:
    /// publishing someone's home to the metre gives away an address its private field keeps (a visitor's report).
    @Test(arguments: ["{type: decimal, scale: 4}", "{type: decimal, scale: 3}"])
    func coordinatesKeptRoughlyByDefaultAreAWarning(lon: String) throws {
        let (schema, problems) = try Self.places(lon: lon)
        #expect(schema != nil)
        #expect(problems.map(\.description) == [
            "content/schemas/places.yaml:3:12: warning: 'lat' keeps a decimal's default 2 places, so a place is moved by up to 556 m; give it "
                + "'scale: 5' (about 1 m), or 'scale: 3' (about 100 m) for a place that is someone's home",
        ])
    }

    /// cmark-gfm renders a row in time quadratic in its cells, so a Markdown line may hold at most 500 '|'.
    @Test func markdownTablesAreLimitedTo500Columns() throws {
        let row = { (cells: Int) in "bio: \"" + String(repeating: "|a", count: cells - 1) + "|\"\nname: Ana\nrate: 1" }
        #expect(try validate(row(500)).1.isEmpty)
        #expect(try validate(row(501)).1 == [
            "content/cleaners/ana.yaml:1:6: error: 'bio' has a line of 501 '|' characters; a Markdown table may have at most 500 columns",
        ])
    }

    /// JSON Schema's `uri` and older URL parsers take ASCII only: an address written in another script is
    /// published as its IDNA host and percent-encoded path, which browsers show as written.
    @Test func urlsArePublishedInASCII() throws {
        let (listing, problems) = try validate("name: Ana\nrate: 1\nwebsite: https://café.example/menü?q=ü#top\n")
        #expect(problems.isEmpty)
        #expect(listing?.fields["website"] == .string("https://xn--caf-dma.example/men%C3%BC?q=%C3%BC#top"))
        let (plain, _) = try validate("name: Ana\nrate: 1\nwebsite: https://example.org/a%20b?x=1\n")
        #expect(plain?.fields["website"] == .string("https://example.org/a%20b?x=1"))
        // Escapes already written stay as they are beside the ones added; what a URI may not hold is escaped.
        let cases = [
            "https://example.org/café%20menu": "https://example.org/caf%C3%A9%20menu",
            "https://ÉXAMPLE.org:8080/a%20b/ä": "https://xn--xample-9ua.org:8080/a%20b/%C3%A4",
            "https://example.org/<x>/\"q\"": "https://example.org/%3Cx%3E/%22q%22",
        ]
        for (written, published) in cases {
            let (listing, _) = try validate("name: Ana\nrate: 1\nwebsite: '\(written)'\n")
            #expect(listing?.fields["website"] == .string(published), "\(written)")
        }
        let text = "title: T\nbase_url: https://bücher.example/katalog/\nkinds: [cleaners]\n"
        #expect(decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml").0?.baseURL == "https://xn--bcher-kva.example/katalog/")
    }

    /// A facet's value named twice in a listing's list is reported at the second, with both item numbers.
    @Test func aFacetValueListedTwiceIsAnError() throws {
        let text = "name: Ana\nrate: 1\nlanguages: [English, Polish, English]\n"
        #expect(try validate(text).1.isEmpty, "a list that is no facet may repeat itself")
        let node = try parseYAML(Array((Self.schemaText + "\nfacets: [languages]\n").utf8), file: "content/schemas/cleaners.yaml")
        let schema = try #require(decodeKindSchema(node, kind: "cleaners", file: "content/schemas/cleaners.yaml", knownKinds: ["cleaners", "owners"], reservedFacetNames: [:]).0)
        let listing = try parseYAML(Array(text.utf8), file: "content/cleaners/ana.yaml")
        let checked = ListingValidator(schema: schema, mediaFiles: []).check(listing, file: "content/cleaners/ana.yaml", slug: "ana")
        let validated = checked.listing, problems = checked.problems
        #expect(validated == nil)
        #expect(problems.map(\.description) == ["content/cleaners/ana.yaml:3:30: error: 'languages' lists 'English' twice (items 1 and 3); name each value once"])
    }

    @Test func quotedNumbersAreText() throws {
        let (_, problems) = try validate("name: Ana\nrate: '18.50'\n")
        #expect(problems == ["content/cleaners/ana.yaml:2:7: error: 'rate' must be a decimal number such as 18.50, not '18.50' (numbers are written without quotes)"])
        let (_, quotedFlag) = try validate("name: Ana\nrate: 1\neco: \"true\"\n")
        #expect(quotedFlag == ["content/cleaners/ana.yaml:3:6: error: 'eco' must be true or false, not 'true' (true and false are written without quotes)"])
    }

    @Test(arguments: [
        ("ana@example.ie", true), ("a.b+c!#$%&'*/=?^_`{|}~-@mail.example.co.uk", true), ("x@a-b.ie", true),
        ("ana", false), ("ana@", false), ("@example.ie", false), ("a@b@example.ie", false), (".ana@example.ie", false),
        ("ana.@example.ie", false), ("a..b@example.ie", false), ("ana@example", false), ("ana@example.i", false),
        ("ana@example.i3", false), ("ana@-example.ie", false), ("ana@example-.ie", false), ("ana@exa_mple.ie", false),
        ("ana@example..ie", false), ("añа@example.ie", false), ("ana@exämple.ie", false), ("a na@example.ie", false),
        (String(repeating: "a", count: 65) + "@example.ie", false), ("ana@" + String(repeating: "a", count: 64) + ".ie", false),
    ])
    func emailAddressesAreChecked(address: String, valid: Bool) throws {
        let (_, problems) = try validate("name: Ana\nrate: 18.50\nemail: \"\(address)\"\n")
        #expect(problems.isEmpty == valid, "\(address): \(problems)")
    }

    @Test func imagePathsMayNotLeaveTheMediaFolder() throws {
        for path in ["../site.yaml", "/etc/passwd", "cleaners/%2e%2e/x.png", "a//b.png"] {
            let (_, problems) = try validate("name: Ana\nrate: 1\nphoto: \"\(path)\"\n")
            #expect(problems.count == 1 && problems[0].contains("cannot use the path"), "\(path): \(problems)")
        }
    }

    @Test func unknownFieldSuggestsTheClosestName() throws {
        let (_, problems) = try validate("name: Ana\nrate: 1\ncounty: Cork\nwebsit: https://example.org\n")
        #expect(problems == ["content/cleaners/ana.yaml:4:1: error: unknown field 'websit'; did you mean 'website'?"])
    }

    @Test func emptyFileIsAnError() throws {
        let validator = ListingValidator(schema: try schema(), mediaFiles: [])
        let checked = validator.check(nil, file: "content/cleaners/ana.yaml", slug: "ana")
        let listing = checked.listing, problems = checked.problems
        #expect(listing == nil)
        #expect(problems.map(\.description).first?.hasPrefix("content/cleaners/ana.yaml:1:1: error: file holds no listing") == true)
    }

    @Test func invalidSchemasAreLocated() throws {
        let text = """
            title_field: nmae
            fields:
              name: {type: strng}
              tags: {type: list}
              owner: {type: reference, to: nobody}
              slug: string
              updated: date
            """
        let node = try parseYAML(Array(text.utf8), file: "s.yaml")
        let (schema, problems) = decodeKindSchema(node, kind: "things", file: "s.yaml", knownKinds: ["things"], reservedFacetNames: [:])
        #expect(schema == nil)
        #expect(problems.map(\.description) == [
            "s.yaml:1:14: error: 'title_field' names 'nmae', which is not a field of this kind; did you mean 'name'?",
            "s.yaml:3:16: error: unknown field type 'strng'; did you mean 'string'?",
            "s.yaml:4:9: error: list field 'tags' needs 'of', the type of its items",
            "s.yaml:5:32: error: reference field 'owner' points to 'nobody', which is not a kind of this site",
            "s.yaml:6:3: error: field name 'slug' is reserved; every listing already has it",
            "s.yaml:7:3: error: field name 'updated' is reserved; every listing already has it",
        ])
    }

    /// The contact form posts a visitor's name, email and message: only to https, to http on this machine, or to a
    /// path on the site's own host. Browsers read `\` as `/`, so `/\host/x` leaves the host as `//host/x` does.
    @Test(arguments: [
        ("https://forms.example.org/send", true), ("/contact/send", true), ("http://127.0.0.1:8080/send", true),
        ("http://forms.example.org/send", false), ("//forms.example.org/send", false), ("/\\forms.example.org/send", false),
        ("https://user:secret@forms.example.org/send", false), ("https://forms.example.org\\@evil.example/send", false),
    ])
    func aContactEndpointKeepsTheVisitorsDetailsOnTheSite(endpoint: String, accepted: Bool) throws {
        let text = "title: T\nbase_url: https://example.org/\nkinds: [cleaners]\ncontact: {endpoint: '\(endpoint)', kinds: [cleaners]}\n"
        let (config, problems) = decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml")
        #expect((config != nil) == accepted, "\(problems)")
        #expect(problems.contains { $0.message.hasPrefix("'endpoint' must be") } == !accepted)
    }

    /// `language` is a language tag, as `<html lang>` takes it: `english` was written as it is (a tester's report).
    @Test(arguments: [("en", true), ("en-IE", true), ("zh-Hant-TW", true), ("pl", true), ("english", false), ("e", false), ("en-", false), ("12", false)])
    func theLanguageIsATag(language: String, accepted: Bool) throws {
        let text = "title: T\nbase_url: https://example.org/\nkinds: [cleaners]\nlanguage: \(language)\n"
        let (config, problems) = decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml")
        #expect((config != nil) == accepted, "\(problems)")
    }

    /// An empty list of widths is a list: the message says how many it holds, not what it is.
    @Test func anEmptyListOfWidthsIsSaidToBeEmpty() throws {
        let text = "title: T\nbase_url: https://example.org/\nkinds: [cleaners]\nimages: {widths: []}\n"
        let (_, problems) = decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml")
        #expect(problems.map(\.description) == [
            "site.yaml:4:18: error: 'widths' must be a list of 1 to 10 widths in pixels, such as [320, 640, 1280], not a list of 0"
        ])
    }

    @Test func siteConfigIsChecked() throws {
        let text = "title: T\nbase_url: example.org\npage_size: 0\nkinds: [cleaners, media, sync]\ncolor: red\nsync_builds: 0\n"
        let (config, problems) = decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml")
        #expect(config == nil)
        #expect(problems.map(\.description) == [
            "site.yaml:2:11: error: 'base_url' must be an absolute http or https URL such as https://example.org/, not 'example.org'",
            "site.yaml:3:12: error: 'page_size' must be a whole number from 1 to 1000, not '0'",
            "site.yaml:4:19: error: kind name 'media' is reserved for the site's own output files and folders",
            "site.yaml:4:26: error: kind name 'sync' is reserved for the site's own output files and folders",
            "site.yaml:5:1: error: unknown setting 'color' in the site configuration",
            "site.yaml:6:14: error: 'sync_builds' must be a whole number from 1 to 1000, not '0'",
        ])
    }

    /// `time_zone` is an IANA name; anything else, a path above all, is refused where it is written.
    @Test func theTimeZoneIsAnIANAName() throws {
        func decoded(_ zone: String) throws -> (SiteConfig?, [String]) {
            let text = "title: T\nbase_url: https://example.org/\nkinds: [cleaners]\ntime_zone: \(zone)\n"
            let (config, problems) = decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml")
            return (config, problems.map(\.description))
        }
        #expect(try decoded("Europe/Dublin").0?.timeZone.identifier == "Europe/Dublin")
        for bad in ["Dublin", "../../etc/passwd", "Europe//Dublin", "/usr/share/zoneinfo/UTC"] {
            let (config, problems) = try decoded("'\(bad)'")
            #expect(config == nil)
            #expect(problems == ["site.yaml:4:12: error: 'time_zone' must be an IANA time zone name such as Europe/Dublin or America/New_York, not '\(bad)'"])
        }
        let text = "title: T\nbase_url: https://example.org/\nkinds: [cleaners]\n"
        let (config, _) = decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml")
        #expect(config?.timeZone.secondsFromGMT() == 0)
    }

    /// Pages append paths to the base URL, so it may hold nothing they would land inside or that would send
    /// them to another host, and no name and password to publish in every feed.
    @Test func aBaseURLThatWouldBreakLinksIsRefused() throws {
        func problems(_ baseURL: String) throws -> [String] {
            let text = "title: T\nbase_url: \(baseURL)\nkinds: [cleaners]\n"
            return decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml").1.map(\.description)
        }
        let flaws = [
            "https://example.org//": "has an empty, '.' or '..' folder in its path",
            "https://example.org/a//b/": "has an empty, '.' or '..' folder in its path",
            "https://example.org/a/../b/": "has an empty, '.' or '..' folder in its path",
            "https://example.org/./": "has an empty, '.' or '..' folder in its path",
            "https://example.org/a/%2e%2E/": "has an empty, '.' or '..' folder in its path",
            "https://example.org/sub/?x=1": "has a query or fragment",
            "https://example.org/sub/#top": "has a query or fragment",
            "https://user:pw@example.org/": "holds a user name or password",
        ]
        for (url, flaw) in flaws {
            #expect(try problems(url) == [
                "site.yaml:2:11: error: 'base_url' \(flaw): every link, feed and sitemap entry starts with it; write one such as https://example.org/catalogue/, not '\(url)'",
            ])
        }
        for url in ["https://example.org", "https://example.org/", "https://example.org/catalogue", "http://localhost:8080/a/b/"] {
            #expect(try problems(url).isEmpty, "\(url)")
        }
    }

    /// What URLComponents takes but browsers would each mend their own way is refused, with why, and without
    /// quoting the value again (it may be private).
    @Test func aURLThatBrowsersWouldMendIsRefused() throws {
        let flaws = [
            "https://example..org/": "its host has an empty part between dots",
            "https://.example.org/": "its host has an empty part between dots",
            "https://example.org:99999/": "its port is not one from 1 to 65535",
            "https://example.org:0/": "its port is not one from 1 to 65535",
            "https://example.org/100%/": "'%' starts an escape of two hex digits, such as %20; write a '%' itself as %25",
            "https://example.org/a%zz": "'%' starts an escape of two hex digits, such as %20; write a '%' itself as %25",
            "https://example.org/a%2": "'%' starts an escape of two hex digits, such as %20; write a '%' itself as %25",
        ]
        for (url, flaw) in flaws {
            #expect(try validate("name: Ana\nrate: 1\nwebsite: '\(url)'\n").1 == [
                "content/cleaners/ana.yaml:3:10: error: 'website' must be an absolute http or https URL, not '\(url)' (\(flaw))",
            ])
        }
        for url in ["https://example.org:8080/a%2Fb%c3%a9", "https://[::1]:443/", "http://localhost:1/"] {
            #expect(try validate("name: Ana\nrate: 1\nwebsite: '\(url)'\n").1.isEmpty, "\(url)")
        }
        let text = "title: T\nbase_url: https://example.org:70000/\nkinds: [cleaners]\n"
        #expect(decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml").1.map(\.description) == [
            "site.yaml:2:11: error: 'base_url' must be an absolute http or https URL such as https://example.org/, not "
                + "'https://example.org:70000/' (its port is not one from 1 to 65535)",
        ])
    }

    @Test func subPathOfTheBaseURLIsKept() throws {
        let text = "title: T\nbase_url: https://example.org/catalogue\nkinds: [cleaners]\n"
        let (config, _) = decodeSiteConfig(try parseYAML(Array(text.utf8), file: "site.yaml"), file: "site.yaml")
        #expect(config?.basePath == "/catalogue/")
        #expect(config?.url("cleaners/ana/") == "https://example.org/catalogue/cleaners/ana/")
        // `serve` swaps in its own address: the kept base path follows.
        var served = try #require(config)
        served.baseURL = "http://127.0.0.1:4000/preview/"
        #expect(served.path("cleaners/ana/") == "/preview/cleaners/ana/")
        served.baseURL = "http://127.0.0.1:4000/"
        #expect(served.basePath == "/")
    }

    /// Text an app fills in may use only the placeholders its field names, found in one pass: many `{{` with
    /// no `}}` once took time quadratic in the text.
    @Test func placeholdersAreFoundInLinearTime() throws {
        let text = """
            title: Alerts
            title_field: text
            fields:
              text: {type: string, required: true, placeholders: [contact, place]}
            """
        let schema = try #require(decodeKindSchema(try parseYAML(Array(text.utf8), file: "s.yaml"), kind: "alerts", file: "s.yaml", knownKinds: ["alerts"], reservedFacetNames: [:]).0)
        func problems(_ value: String) throws -> [String] {
            let node = try parseYAML(Array("text: \"\(value)\"\n".utf8), file: "a.yaml")
            return ListingValidator(schema: schema, mediaFiles: []).check(node, file: "a.yaml", slug: "a").problems.map(\.message)
        }
        let mixed = try problems("Hi {{contact}}, {{ place }}{{{x}}} {{a}b}} {{ who }}")
        #expect(mixed == [
            "'text' uses the placeholder {{who}}; the app fills in only {{contact}}, {{place}}",
            "'text' uses the placeholder {{{x}}; the app fills in only {{contact}}, {{place}}",
        ])
        var found: [String] = []
        let elapsed = try ContinuousClock().measure { found = try problems(String(repeating: "{{ ", count: 100_000) + "x}") }
        #expect(found.isEmpty)
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }
}
