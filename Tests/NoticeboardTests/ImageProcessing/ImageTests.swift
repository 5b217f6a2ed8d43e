import Foundation
import Noticeboard
import SiteModel
import Testing

/// Photos end to end: builds of the photos fixture and the example site, read back as apps, browsers and
/// exiftool see them.
@Suite struct ImageTests {
    func build(_ site: String, output: String? = nil) throws(BuildFailure) -> BuildReport {
        try Noticeboard.build(BuildOptions(root: site, output: output, now: CalendarDate(year: 2026, month: 11, day: 23)))
    }

    /// exiftool's reading of every file below `folder`, by path: "Group:Tag" → value.
    func exiftool(_ folder: String) throws -> [String: [String: Any]] {
        let result = try TestSupport.run("exiftool", ["-json", "-a", "-G1", "-r", folder])
        let files = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
        return Dictionary(uniqueKeysWithValues: files.map { ($0["SourceFile"] as? String ?? "", $0) })
    }

    /// Every image object in a JSON document, wherever it sits.
    func images(in json: Any) -> [[String: Any]] {
        if let object = json as? [String: Any] {
            return (object["variants"] != nil ? [object] : []) + object.values.flatMap(images)
        }
        return (json as? [Any])?.flatMap(images) ?? []
    }

    func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: try #require(FileManager.default.contents(atPath: path), "no \(path)"))
    }

    /// A phone photo's camera, location and authorship tags, in EXIF, XMP and IPTC, and comments: none of
    /// them, nor any other metadata, reaches a published file.
    @Test func noPublishedImageCarriesMetadata() throws {
        let site = TestSupport.makeSite(fixture: "photos")
        defer { TestSupport.removeTree(site) }
        let media = site + "/content/media/things/"
        try FileManager.default.copyItem(atPath: TestSupport.repository + "/content/media/rentals/kayak.jpg", toPath: media + "kayak.jpg")
        let tags = [
            "-GPSLatitude=51.8985", "-GPSLatitudeRef=N", "-GPSLongitude=8.4756", "-GPSLongitudeRef=W", "-GPSAltitude=12",
            "-Make=NB-MAKE-71e0", "-Model=NB-MODEL-2a9c", "-SerialNumber=NB-SERIAL-4f2a", "-Artist=NB-ARTIST-9c1d",
            "-XMP-dc:Creator=NB-XMP-CREATOR-5b3e", "-XMP-exif:GPSLatitude=51.8985", "-IPTC:By-line=NB-IPTC-BYLINE-d04f",
            "-IPTC:City=NB-IPTC-CITY-8e21", "-Comment=NB-COMMENT-6c7d",
        ]
        for file in ["lamp.jpg", "logo.png", "poster.webp", "kayak.jpg"] {
            let tagged = try TestSupport.run("exiftool", ["-q", "-overwrite_original"] + tags + [media + file])
            #expect(tagged.status == 0, "\(tagged.stderr)")
        }
        TestSupport.write("name: Kayak\nphoto: things/kayak.jpg\nlisted: 2026-11-03\n", to: site + "/content/things/kayak.yaml")
        // The sources carry it all, so the test below cannot pass by accident.
        let sources = try exiftool(media)
        for file in ["lamp.jpg", "kayak.jpg"] {
            let source = try #require(sources[media + file])
            for key in ["GPS:GPSLatitude", "IFD0:Make", "ExifIFD:SerialNumber", "XMP-dc:Creator", "IPTC:By-line", "File:Comment"] {
                #expect(source[key] != nil, "\(file) lacks \(key)")
            }
        }
        #expect(sources[media + "logo.png"]?["GPS:GPSLatitude"] != nil && sources[media + "poster.webp"]?["XMP-dc:Creator"] != nil)

        _ = try build(site)
        let published = try exiftool(site + "/public/media")
        #expect(published.count == 28, "\(published.keys.sorted())")
        // What is left describes the pixels only: file type, size, encoding, the PNG's pixel density.
        let allowedGroups: Set<String> = ["SourceFile", "ExifTool", "System", "File", "JFIF", "PNG", "PNG-pHYs", "RIFF", "Composite", "SVG"]
        for (file, read) in published {
            for key in read.keys {
                let group = String(key.split(separator: ":").first ?? "")
                #expect(allowedGroups.contains(group), "\(file) carries \(key)")
                #expect(!["GPS", "Comment", "Make", "Model", "Serial", "Artist", "Creator"].contains { key.contains($0) }, "\(file) carries \(key)")
            }
        }
        // Nor does any other file: pages, JSON and feeds included.
        let markers = ["NB-MAKE", "NB-MODEL", "NB-SERIAL", "NB-ARTIST", "NB-XMP", "NB-IPTC", "NB-COMMENT", "Pixel 7", "51.8985", "51 deg"]
        for (path, data) in TestSupport.tree(site + "/public") {
            for marker in markers { #expect(data.range(of: Data(marker.utf8)) == nil, "\(marker) in \(path)") }
        }
    }

    /// Each image in the JSON lists every variant with its URL, size and format, and each is a file of
    /// exactly that size and format; photos are upright and 8-bit sRGB; feeds list them too.
    @Test func everyVariantIsListedWithItsTrueSizeAndFormat() throws {
        let site = TestSupport.makeSite(fixture: "photos")
        defer { TestSupport.removeTree(site) }
        try FileManager.default.copyItem(
            atPath: TestSupport.repository + "/content/media/rentals/lawn-mower.jpg", toPath: site + "/content/media/things/mower.jpg")
        TestSupport.write("name: Mower\nphoto: things/mower.jpg\nlisted: 2026-11-04\n", to: site + "/content/things/mower.yaml")
        let report = try build(site)
        #expect(report.imagesProcessed == 7)
        let public_ = site + "/public"
        let read = try exiftool(public_ + "/media")
        var checked = 0
        for slug in ["lamp", "print", "mower"] {
            for image in images(in: try json(public_ + "/api/things/\(slug).json")) {
                let variants = try #require(image["variants"] as? [[String: Any]])
                #expect(image["url"] as? String == variants.last { $0["format"] as? String == image["format"] as? String }?["url"] as? String)
                for variant in variants {
                    let url = try #require(variant["url"] as? String)
                    let file = public_ + "/" + url.dropFirst("https://example.org/".count)
                    let facts = try #require(read[file], "\(url) was not published")
                    let types = ["jpeg": "JPEG", "png": "PNG", "webp": "WEBP", "svg": "SVG"]
                    let type = try #require(types[variant["format"] as? String ?? ""])
                    #expect((facts["File:FileType"] as? String)?.hasSuffix(type) == true, "\(url) is \(facts["File:FileType"] ?? "")")
                    // exiftool gives no size for an SVG with only a viewBox; the stage's own reading is tested on its own.
                    if type != "SVG" {
                        #expect(facts["Composite:ImageSize"] as? String == "\(variant["width"]!)x\(variant["height"]!)", "\(url)")
                    }
                    if let components = facts["File:ColorComponents"] { #expect(components as? Int == 3, "\(url) is not RGB") }
                    if let depth = facts["PNG:BitDepth"] { #expect(depth as? Int == 8, "\(url) is not 8-bit") }
                    checked += 1
                }
            }
        }
        #expect(checked == 28)
        // The phone photo stored on its side (EXIF orientation 6) is published upright.
        let mower = try #require((try json(public_ + "/api/things/mower.json") as? [String: Any])?["photo"] as? [String: Any])
        #expect(mower["width"] as? Int == 1280 && mower["height"] as? Int == 1707)
        // A private image field is checked as a path but never processed or published: its GIF is no error.
        #expect(!TestSupport.tree(public_).keys.contains { $0.contains("spinner") })
        // The JSON feed names each entry's main image and lists all of them with their variants.
        let feed = try #require(try json(public_ + "/feeds/things.json") as? [String: Any])
        let entries = try #require(feed["items"] as? [[String: Any]])
        let lamp = try #require(entries.first { ($0["url"] as? String)?.hasSuffix("/things/lamp/") == true })
        #expect((lamp["image"] as? String)?.hasPrefix("https://example.org/media/things/lamp-1000w.") == true)
        #expect(images(in: lamp["_noticeboard"] as Any).count == 4)
        let validation = try TestSupport.run("python3", ["scripts/validate-output.py", public_, "https://example.org/"])
        #expect(validation.status == 0, "\(validation.stdout)")
    }

    /// Pages give browsers what they need to pick a size without layout shift: srcset and sizes, width and
    /// height, WebP first, and lazy loading for all but the first picture.
    @Test func pagesOfferSrcsetSizesAndDimensions() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let kayak = TestSupport.read(site + "/public/rentals/kayak/index.html")
        let pictures = kayak.matches(of: /<picture>.*?<\/picture>/).map { String($0.output) }
        #expect(pictures.count == 2)
        let photo = try #require(pictures.first)
        #expect(photo.contains(#"<source type="image/webp" srcset="/catalogue/media/rentals/kayak-320w."#))
        #expect(photo.contains(#".webp 1280w" sizes="(max-width: 22rem) 100vw, 20rem">"#))
        #expect(photo.contains(#".jpg 1280w" sizes="(max-width: 22rem) 100vw, 20rem" alt="Sit-on-top sea kayak, photo 1 of 2" width="1280" height="960">"#))
        #expect(!photo.contains("loading="))
        // The second picture, an SVG, is below the first: lazy, with its own size and no srcset.
        #expect(pictures[1].wholeMatch(of: /<picture><img src="\/catalogue\/media\/rentals\/kayak-2\.[0-9a-f]{8}\.svg" alt="Sit-on-top sea kayak, photo 2 of 2" width="200" height="200" loading="lazy"><\/picture>/) != nil, "\(pictures[1])")
        let list = TestSupport.read(site + "/public/cleaners/index.html")
        // On a list, the cards a phone shows before scrolling load their pictures at once; the rest wait.
        let cards = list.components(separatedBy: #"<li class="card">"#).dropFirst()
        #expect(cards.count > 6)
        for (index, card) in cards.enumerated() {
            guard let thumbnail = card.firstMatch(of: /<img class="thumbnail"[^>]*>/).map({ String($0.output) }) else { continue }
            #expect(thumbnail.contains(#" loading="lazy""#) == (index >= 4), "card \(index + 1): \(thumbnail)")
            #expect(thumbnail.contains(#" width=""#) && thumbnail.contains(#" height=""#))
        }
        // Every file a srcset names was published.
        let files = TestSupport.tree(site + "/public")
        for (path, data) in files where path.hasSuffix(".html") {
            for match in String(decoding: data, as: UTF8.self).matches(of: /srcset="([^"]+)"/) {
                for candidate in match.1.split(separator: ",") {
                    let url = candidate.split(separator: " ").first.map(String.init) ?? ""
                    #expect(url.hasPrefix("/catalogue/") && files[String(url.dropFirst("/catalogue/".count))] != nil, "\(path): \(url)")
                }
            }
        }
    }

    /// A decompression bomb and broken images stop the build with errors at the fields that name them,
    /// memory stays bounded, and the last good site stays as it was.
    @Test func badImagesFailTheBuildAtTheirFieldsAndLeaveTheSiteAlone() throws {
        let site = TestSupport.makeSite(fixture: "photos")
        defer { TestSupport.removeTree(site) }
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        let good = TestSupport.tree(site + "/public")
        let media = site + "/content/media/things/"
        FileManager.default.createFile(atPath: media + "bomb.png", contents: Data(try TestSupport.pngBomb()))
        let lamp = try #require(FileManager.default.contents(atPath: media + "lamp.jpg"))
        FileManager.default.createFile(atPath: media + "torn.jpg", contents: lamp.prefix(lamp.count / 2))
        TestSupport.write(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9" onload="alert(1)"/>"#, to: media + "sly.svg")
        TestSupport.write("name: Bad\nphoto: things/bomb.png\ngallery:\n  - things/torn.jpg\n  - things/sly.svg\nlisted: 2026-11-05\n", to: site + "/content/things/bad.yaml")

        // Measured around the CLI: the most memory the build process held at once.
        let measure = "import resource, subprocess, sys; subprocess.run(sys.argv[1:]); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        let measured = try TestSupport.run("python3", ["-c", measure, TestSupport.executable, "build", "--root", site])
        let kilobytes = try #require(Int(measured.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kilobytes < 400_000, "the build held \(kilobytes) kB")
        let lines = measured.stderr.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(lines)")
        #expect(lines[0] == "content/things/bad.yaml:2:8: error: 'photo' names content/media/things/bomb.png, which is 50000 × 50000 pixels"
            + " (2500.0 megapixels), over the limit of 100 megapixels, and was refused before decoding; make it smaller, or raise"
            + " images.max_megapixels in content/site.yaml")
        #expect(lines[1].hasPrefix("content/things/bad.yaml:4:5: error: 'gallery[1]' names content/media/things/torn.jpg, which is damaged and cannot be decoded ("))
        #expect(lines[2] == "content/things/bad.yaml:5:5: error: 'gallery[2]' names content/media/things/sly.svg, which is an SVG with an event"
            + " handler attribute onload at line 1 of that file; SVG images may not hold scripts, event handlers, foreignObject or references to other files")
        #expect(lines[3] == "3 errors; nothing was written.")
        #expect(TestSupport.tree(site + "/public") == good)
    }

    @Test func imageSettingsComeFromSiteYAML() throws {
        let site = TestSupport.makeSite(fixture: "photos")
        defer { TestSupport.removeTree(site) }
        let config = site + "/content/site.yaml"
        let original = TestSupport.read(config)
        TestSupport.write(original + "images:\n  widths: [480, 240]\n  quality: 50\n", to: config)
        _ = try build(site)
        let lamp = try #require((try json(site + "/public/api/things/lamp.json") as? [String: Any])?["photo"] as? [String: Any])
        #expect((lamp["variants"] as? [[String: Any]])?.map { "\($0["format"]!) \($0["width"]!)" } == ["jpeg 240", "jpeg 480", "webp 240", "webp 480"])

        TestSupport.write(original + "images:\n  widths: [480, 480, 9000]\n  quality: best\n  max_pixels: 5\n", to: config)
        let result = try TestSupport.runCLI(["check"], in: site)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(lines)")
        #expect(lines[0] == "content/site.yaml:5:17: error: the width 480 is listed twice")
        #expect(lines[1].hasPrefix("content/site.yaml:5:22: error: each width in 'widths' must be a whole number of pixels from 16 to 8192, not "))
        #expect(lines[2].hasPrefix("content/site.yaml:6:12: error: 'quality' must be a whole number from 1 to 100, not "))
        #expect(lines[3].hasPrefix("content/site.yaml:7:3: error: unknown setting 'max_pixels' in 'images'"))
    }
}
