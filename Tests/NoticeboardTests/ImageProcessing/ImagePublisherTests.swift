import Foundation
@testable import ImageProcessing
import SiteLoader
import SiteModel
import Testing

/// The image stage on its own: small sites in temporary folders, one image named by one field.
@Suite struct ImagePublisherTests {
    static let photos = TestSupport.fixtures + "/photos/content/media/things/"
    static let listing = SourceLocation(file: "content/things/x.yaml", line: 3, column: 8)

    /// Publishes `content/media/things/<name>` holding `bytes`, as named by a field `photo` at `listing`.
    func publish(_ name: String, _ bytes: [UInt8], settings: ImageSettings = .standard) -> (ImagePublisher.Outcome, String) {
        let site = TestSupport.temporaryFolder()
        try! FileManager.default.createDirectory(atPath: site + "/content/media/things", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: site + "/content/media/things/" + name, contents: Data(bytes))
        let publisher = ImagePublisher(files: SiteFiles(root: site), settings: settings)
        return (publisher.publish([MediaUse(path: "things/" + name, field: "photo", location: Self.listing)]), site)
    }

    func fixture(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: Self.photos + name)!)
    }

    /// The one error of an image that cannot be published, without the located prefix.
    func problem(_ name: String, _ bytes: [UInt8], settings: ImageSettings = .standard) -> String {
        let (outcome, site) = publish(name, bytes, settings: settings)
        defer { TestSupport.removeTree(site) }
        #expect(outcome.images.isEmpty)
        #expect(outcome.problems.count == 1)
        let prefix = "content/things/x.yaml:3:8: error: 'photo' names content/media/things/\(name), which "
        let text = outcome.problems.first?.description ?? ""
        #expect(text.hasPrefix(prefix), "\(text)")
        return String(text.dropFirst(prefix.count))
    }

    @Test func variantsAtEachWidthInTheSourceFormatAndWebPNeverScaledUp() throws {
        let (outcome, site) = publish("lamp.jpg", fixture("lamp.jpg"))
        defer { TestSupport.removeTree(site) }
        #expect(outcome.problems.isEmpty && outcome.processed == 1)
        let image = try #require(outcome.images["things/lamp.jpg"])
        // 1000 px wide: 320 and 640, then its own width, never 1280.
        #expect(image.variants.map { "\($0.format.rawValue) \($0.width)x\($0.height)" } == [
            "jpeg 320x240", "jpeg 640x480", "jpeg 1000x750", "webp 320x240", "webp 640x480", "webp 1000x750",
        ])
        #expect(image.fallback.outputPath.hasPrefix("media/things/lamp-1000w.") && image.fallback.outputPath.hasSuffix(".jpg"))
        for variant in image.variants {
            let bytes = try #require(FileManager.default.contents(atPath: variant.file))
            #expect(bytes.starts(with: variant.format == .jpeg ? [0xFF, 0xD8, 0xFF] : Array("RIFF".utf8)))
        }

        // Configured widths, in any order; each narrower than the source is made.
        let (custom, other) = publish("lamp.jpg", fixture("lamp.jpg"), settings: ImageSettings(widths: [900, 200], quality: 60, maxMegapixels: 100))
        defer { TestSupport.removeTree(other) }
        #expect(custom.images["things/lamp.jpg"]?.variants(in: .jpeg).map(\.width) == [200, 900])
    }

    @Test func pngKeepsItsFormatAndAlphaWebPSourcesStayWebP() throws {
        let (png, first) = publish("logo.png", fixture("logo.png"))
        defer { TestSupport.removeTree(first) }
        #expect(png.images["things/logo.png"]?.variants.map { "\($0.format.rawValue) \($0.width)" } == ["png 320", "png 500", "webp 320", "webp 500"])
        let (webp, second) = publish("poster.webp", fixture("poster.webp"))
        defer { TestSupport.removeTree(second) }
        #expect(webp.images["things/poster.webp"]?.variants.map { "\($0.format.rawValue) \($0.width)" } == ["webp 320", "webp 640", "webp 700"])
    }

    /// Damaged files whose header is whole: libjpeg only warns when the data ends before the size the header
    /// claims, or holds an end marker or bytes it has to skip, and fills the rest with grey.
    @Test func damagedImageDataIsRefusedThoughTheHeaderIsWhole() throws {
        let jpeg = fixture("lamp.jpg")
        let middle = jpeg.count / 2
        var claimsMore = jpeg
        // The frame header (SOF0…SOF2: FF C0…C2, length, precision) says 9000 × 9000; the data is of 1000 × 750.
        let frame = try #require((0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && (0xC0...0xC2).contains(jpeg[$0 + 1]) })
        claimsMore.replaceSubrange(frame + 5..<frame + 9, with: [0x23, 0x28, 0x23, 0x28])
        var endInTheMiddle = jpeg
        endInTheMiddle.replaceSubrange(middle..<middle + 2, with: [0xFF, 0xD9])
        var overwritten = jpeg
        overwritten.replaceSubrange(middle..<middle + 64, with: [UInt8](repeating: 0xFF, count: 64))
        let cases: [(String, [UInt8])] = [
            ("claims-more.jpg", claimsMore), ("end-in-the-middle.jpg", endInTheMiddle), ("overwritten.jpg", overwritten),
            ("cut-with-end.jpg", Array(jpeg.prefix(middle)) + [0xFF, 0xD9]), ("cut.jpg", Array(jpeg.prefix(middle))),
            ("cut.png", Array(fixture("logo.png").dropLast(fixture("logo.png").count / 3))),
            ("cut.webp", Array(fixture("poster.webp").dropLast(fixture("poster.webp").count / 3))),
        ]
        for (name, bytes) in cases {
            #expect(problem(name, bytes).hasPrefix("is damaged and cannot be decoded ("), "\(name)")
        }
    }

    @Test func badImagesAreReportedWhereTheFieldNamesThem() throws {
        let jpeg = fixture("lamp.jpg")
        #expect(problem("broken.jpg", Array(jpeg.prefix(jpeg.count / 3))).hasPrefix("is damaged and cannot be decoded ("))
        #expect(problem("notes.jpg", Array("shopping list: milk, eggs\n".utf8))
            == "is not an image Noticeboard can read: its bytes are not JPEG, PNG, WebP or SVG")
        #expect(problem("lamp.png", jpeg) == "holds JPEG data but its name says PNG; rename it to end in .jpg")
        #expect(problem("lamp.svg", jpeg) == "holds JPEG data but its name says SVG; rename it to end in .jpg")
        #expect(problem("lamp.jpeg.txt", jpeg) == "holds JPEG data but its name has another extension; rename it to end in .jpg")
        #expect(problem("spinner.gif", fixture("spinner.gif"))
            == "is a GIF image; Noticeboard publishes JPEG, PNG, WebP and SVG, so convert it to one of those")
        #expect(problem("empty.png", []) == "is not an image Noticeboard can read: its bytes are not JPEG, PNG, WebP or SVG")
        // The limit is read from the header, whatever the pixels.
        #expect(problem("lamp.jpg", jpeg, settings: ImageSettings(widths: [320], quality: 80, maxMegapixels: 0))
            == "is 1000 × 750 pixels (0.8 megapixels), over the limit of 0 megapixels, and was refused before decoding;"
            + " make it smaller, or raise images.max_megapixels in content/site.yaml")
    }

    /// A real 50,000 × 50,000 PNG (2.5 gigapixels, 300 kB compressed) is refused from its header: the stage
    /// returns at once, having allocated nothing near the 2.5 GB the pixels would take.
    @Test func decompressionBombIsRefusedFromItsHeader() throws {
        let bomb = try TestSupport.pngBomb()
        let start = Date()
        #expect(problem("bomb.png", bomb)
            == "is 50000 × 50000 pixels (2500.0 megapixels), over the limit of 100 megapixels, and was refused before decoding;"
            + " make it smaller, or raise images.max_megapixels in content/site.yaml")
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func svgsWithCodeOrOutsideReferencesAreRefusedWithTheirLine() throws {
        let open = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">"#
        let cases: [(String, String)] = [
            ("<script>alert(1)</script>", "a <script> element"),
            (#"<rect width="5" height="5" onclick="alert(1)"/>"#, "an event handler attribute onclick"),
            (#"<foreignObject width="5" height="5"><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>"#, "a <foreignObject> element"),
            (#"<image href="https://tracker.example/pixel.png" width="5" height="5"/>"#, "a link to https://tracker.example/pixel.png in href"),
            (#"<use xlink:href="other.svg#icon"/>"#, "a link to other.svg#icon in xlink:href"),
            (#"<a href="javascript:alert(1)"><text>x</text></a>"#, "a link to javascript:alert(1) in href"),
            (#"<image href="data:image/jpeg;base64,/9j/4AAQ" width="5" height="5"/>"#, "a link to data:image/jpeg;base64,/9j/4AAQ in href"),
            (#"<rect width="5" height="5" fill="url(https://example.net/paint.svg#p)"/>"#, "a CSS url(https://example.net/paint.svg#p) outside the file"),
            ("<style>\n@import url(#x);\n</style>", "a CSS @import rule"),
            (#"<set attributeName="href" to="javascript:alert(1)"/>"#, "an animation of href"),
            (#"<animate attributeName="onbegin" values="alert(1)"/>"#, "an animation of onbegin"),
            (#"<iframe src="https://example.net/"/>"#, "a <iframe> element"),
            // HTML by a prefix or by the default namespace, and MathML: browsers act on them (a tester's report).
            (#"<h:meta xmlns:h="http://www.w3.org/1999/xhtml" http-equiv="refresh" content="0;url=https://evil.example/"/>"#, "an HTML element <h:meta>"),
            (#"<img xmlns="http://www.w3.org/1999/xhtml" src="https://tracker.example/pixel.png"/>"#, "an HTML element <img>"),
            (#"<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:mi>x</m:mi></m:math>"#, "a MathML element <m:math>"),
        ]
        for (body, what) in cases + Self.cssBypasses {
            let svg = open + "\n<g>\n" + body + "\n</g>\n</svg>\n"
            #expect(problem("bad.svg", Array(svg.utf8)) == "is an SVG with \(what) at line 3 of that file; SVG images may not hold scripts,"
                + " event handlers, foreignObject or references to other files", "\(body)")
        }
        let doctype = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n\(open)<text>&x;</text></svg>"
        #expect(problem("entity.svg", Array(doctype.utf8)).hasPrefix("is an SVG with a document type declaration at line 2 of that file;"))
        let stylesheet = "<?xml-stylesheet href=\"https://example.net/s.css\"?>\n\(open)</svg>"
        #expect(problem("styled.svg", Array(stylesheet.utf8)).hasPrefix("is an SVG with an <?xml-stylesheet?> instruction at line 1 of that file;"))
        #expect(problem("broken.svg", Array("\(open)\n<g>\n</svg>".utf8)).hasPrefix("is not well-formed SVG: "))
        #expect(problem("page.svg", Array("<html><body/></html>".utf8)) == "is not well-formed SVG: the root element is not <svg> at line 1 of that file")
    }

    /// CSS that fetches from outside the file in Chromium, hidden from a plain text search by CSS escapes, XML
    /// entities, case, quotes, CDATA or functions other than url(); one a line, at line 3.
    static let cssBypasses: [(String, String)] = [
        (#"<style>rect{fill:u\72l(https://e.example/p)}</style>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<style>@\69mport "https://e.example/s.css";</style>"#, "a CSS @import rule"),
        (#"<style>rect{fill:image-set("https://e.example/p.png" 1x)}</style>"#, "a CSS image-set() function"),
        (#"<rect width="5" height="5" fill="u\rl(https://e.example/p)"/>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<rect width="5" height="5" fill="&#117;rl(https://e.example/p)"/>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<rect width="5" height="5" style="filter:U\52L( 'https://e.example/f.svg#f' )"/>"#, "a CSS url(https://e.example/f.svg#f) outside the file"),
        (#"<rect width="5" height="5" style="fill:\000075rl(https://e.example/p)"/>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<rect width="5" height="5" style="fill:\75 rl(https://e.example/p)"/>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<rect width="5" height="5" style="cursor:\55\52\4C(https://e.example/c.cur), auto"/>"#, "a CSS url(https://e.example/c.cur) outside the file"),
        (#"<style>/* fonts */ @font-face{font-family:x;src:url(#f)}</style>"#, "a CSS @font-face rule"),
        (#"<style>rect{fill:-webkit-image-set(url(#a) 1x)}</style>"#, "a CSS -webkit-image-set() function"),
        (#"<style><![CDATA[rect{fill:url(https://e.example/p)}]]></style>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<set attributeName="fill" to="u\rl(https://e.example/p)"/>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<style>rect{fill:url(  "https://e.example/p")}</style>"#, "a CSS url(https://e.example/p) outside the file"),
        (#"<style>rect{fill:cross-fade(url(#a), url(#b))}</style>"#, "a CSS cross-fade() function"),
        (#"<style>rect{fill:url(/**/https://e.example/p)}</style>"#, "a CSS url(/**/https://e.example/p) outside the file"),
        (#"<style>rect{mask:url(&#x27;https://e.example/m&#x27;)}</style>"#, "a CSS url(https://e.example/m) outside the file"),
        (#"<style>@namespace svg url(https://e.example/ns);</style>"#, "a CSS @namespace rule"),
        (#"<rect width="5" height="5" style="--p:url(https://e.example/p);fill:var(--p)"/>"#, "a CSS url(https://e.example/p) outside the file"),
    ]

    @Test func cssEscapesAreResolvedAsCSSReadsThem() {
        #expect(CSSReferences.unescaped(#"u\72l(\000075 \41\\\) "\"#) == #"url(uA\) ""#)
        #expect(CSSReferences.unescaped(#"\0 \110000 \D800"#) == "\u{FFFD}\u{FFFD}\u{FFFD}")
        // A backslash before a newline continues a string; "\r\n" after a hex escape is one whitespace.
        #expect(CSSReferences.unescaped("a\\\nb\\75\r\nrl") == "abu" + "rl")
    }

    @Test func localCSSReferencesStayAllowed() {
        let safe = [
            #"<rect width="5" height="5" fill="url(#grad)" style="stroke:\23 fff"/>"#,
            #"<style>@media (min-width: 1px) { rect { fill: URL( '#g' ) } } @keyframes spin { to { transform: rotate(1turn) } }</style>"#,
            #"<style>rect{filter:drop-shadow(0 0 1px rgb(0 0 0 / 50%));width:calc(100% - 1px)}</style>"#,
        ]
        for body in safe {
            #expect(CSSReferences.outsideReference(in: body.replacingOccurrences(of: "<style>", with: ""), styleSheet: true) == nil, "\(body)")
        }
    }

    @Test func aSafeSVGIsPublishedAsItIsWithItsSize() throws {
        let (outcome, site) = publish("badge.svg", fixture("badge.svg"))
        defer { TestSupport.removeTree(site) }
        #expect(outcome.problems.isEmpty)
        let image = try #require(outcome.images["things/badge.svg"])
        #expect(image.variants.map { "\($0.width)x\($0.height) \($0.format.rawValue)" } == ["120x80 svg"])
        #expect(image.variants[0].outputPath.wholeMatch(of: /media\/things\/badge\.[0-9a-f]{8}\.svg/) != nil, "\(image.variants[0].outputPath)")
        #expect(image.variants[0].file == site + "/content/media/things/badge.svg")
    }

    /// An SVGZ file named .svg is said to be compressed, not malformed XML.
    @Test func aCompressedSVGIsSaidToBeCompressed() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        FileManager.default.createFile(atPath: folder + "/badge.svg", contents: Data(fixture("badge.svg")))
        #expect(try TestSupport.run("gzip", [folder + "/badge.svg"]).status == 0)
        let compressed = [UInt8](try #require(FileManager.default.contents(atPath: folder + "/badge.svg.gz")))
        #expect(problem("badge.svg", compressed) == "is gzip-compressed SVG (an .svgz file), which a browser does not read as an image file; publish it uncompressed")
    }

    /// An SVG's URL is made as a photo's: slugged, so that `#`, `?` or a space in its file name does not end or
    /// break it, and with the bytes' key, so that an edited SVG gets a URL no browser or CDN has cached.
    @Test(arguments: [("logo#1.svg", "logo-1"), ("what?.svg", "what"), ("a b.svg", "a-b"), ("A-B.svg", "a-b")])
    func anSVGsURLNeedsNoEscaping(name: String, stem: String) throws {
        let (outcome, site) = publish(name, fixture("badge.svg"))
        defer { TestSupport.removeTree(site) }
        let path = try #require(outcome.images["things/" + name]?.variants.first?.outputPath)
        #expect(path == "media/things/\(stem).\(path.dropFirst("media/things/\(stem).".count).prefix(8)).svg")
        #expect(path.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || "/.-".contains($0)) }, "\(path)")
    }

    /// WebP holds at most 16,383 pixels a side: a long screenshot's tall variants come in its own format only.
    @Test func aVariantTallerThanWebPAllowsIsMadeInItsSourceFormatOnly() throws {
        let (outcome, site) = publish("screenshot.png", try TestSupport.blackPNG(width: 500, height: 20_000))
        defer { TestSupport.removeTree(site) }
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        let image = try #require(outcome.images["things/screenshot.png"])
        #expect(image.variants.map { "\($0.width)x\($0.height) \($0.format.rawValue)" } == ["320x12800 png", "500x20000 png", "320x12800 webp"])
    }

    @Test func theCacheServesAnUnchangedImageWithoutDecodingIt() throws {
        let (first, site) = publish("lamp.jpg", fixture("lamp.jpg"))
        defer { TestSupport.removeTree(site) }
        #expect(first.processed == 1)
        let publisher = ImagePublisher(files: SiteFiles(root: site), settings: .standard)
        let use = MediaUse(path: "things/lamp.jpg", field: "photo", location: Self.listing)
        let again = publisher.publish([use, use])
        #expect(again.processed == 0 && again.images == first.images && again.cacheKeys == first.cacheKeys)
        // The same bytes under a name that lies about them are refused as they were before the cache held them.
        for (name, message) in [("lamp.png", "name says PNG"), ("lamp.svg", "name says SVG"), ("lamp.jpeg.txt", "name has another extension")] {
            FileManager.default.createFile(atPath: site + "/content/media/things/" + name, contents: Data(fixture("lamp.jpg")))
            let renamed = publisher.publish([MediaUse(path: "things/" + name, field: "photo", location: Self.listing)])
            #expect(renamed.images.isEmpty && renamed.problems.map(\.description) == [
                "content/things/x.yaml:3:8: error: 'photo' names content/media/things/\(name), which holds JPEG data but its \(message); rename it to end in .jpg",
            ])
        }
        // Other settings are another entry; so are other bytes.
        let smaller = ImagePublisher(files: SiteFiles(root: site), settings: ImageSettings(widths: [200], quality: 80, maxMegapixels: 100)).publish([use])
        #expect(smaller.processed == 1 && smaller.cacheKeys.isDisjoint(with: first.cacheKeys))
        FileManager.default.createFile(atPath: site + "/content/media/things/lamp.jpg", contents: Data(fixture("print.jpg")))
        let changed = publisher.publish([use])
        #expect(changed.processed == 1 && changed.images["things/lamp.jpg"]?.fallback.width == 400)
        // A damaged entry is made again rather than trusted.
        let key = try #require(changed.cacheKeys.first)
        try FileManager.default.removeItem(atPath: site + "/.noticeboard-cache/images/\(key)/400.jpg")
        #expect(publisher.publish([use]).processed == 1)

        // Pruning removes entries unused for an hour, not the ones in use or recently made.
        let entries = site + "/.noticeboard-cache/images/"
        let old = try #require(first.cacheKeys.first)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: entries + old)
        publisher.pruneCache(keeping: [key])
        #expect(try FileManager.default.contentsOfDirectory(atPath: entries).sorted() == ([key] + smaller.cacheKeys).sorted())
    }
}
