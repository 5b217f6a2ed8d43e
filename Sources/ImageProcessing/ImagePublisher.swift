import SiteLoader
import SiteModel
import Support

/// The image stage: every file below `content/media/` that a public image field names is checked and
/// published. Photos (JPEG, PNG, WebP) become re-encoded variants, made once and then taken from the cache;
/// SVGs that pass `SVGSafety` are published as they are, under a slugged name. Images are processed across all cores.
public struct ImagePublisher: Sendable {
    public let files: SiteFiles
    public let settings: ImageSettings
    let cache: ImageCache

    /// The cache lives in `<site>/.noticeboard-cache/images/`.
    public init(files: SiteFiles, settings: ImageSettings) {
        self.files = files
        self.settings = settings
        self.cache = ImageCache(folder: SitePaths.cache("images", in: files.root))
    }

    public struct Outcome: Sendable {
        /// By path below `content/media/`, for every image that could be published.
        public var images: [String: PublishedImage]
        /// One error per use of an image that could not be, at the field that names it.
        public var problems: [Diagnostic]
        /// How many sources were decoded and encoded (not taken from the cache).
        public var processed: Int
        /// The cache entries the images came from, kept when the cache is pruned.
        public var cacheKeys: Set<String>
    }

    public func publish(_ uses: [MediaUse]) -> Outcome {
        var outcome = Outcome(images: [:], problems: [], processed: 0, cacheKeys: [])
        if let failure = Vips.startFailure {
            outcome.problems = uses.map { .error(at: $0.location, "'\($0.field)' names content/media/\($0.path), which cannot be processed: libvips did not start (\(failure))") }
            return outcome
        }
        let paths = Array(Set(uses.map(\.path))).sorted()
        let results = paths.parallelMap { path in (path, publish(path)) }
        var failures: [String: ImageProblem] = [:]
        for (path, result) in results {
            switch result {
            case .success(let published):
                outcome.images[path] = published.image
                outcome.cacheKeys.insert(published.cacheKey)
                if published.processed { outcome.processed += 1 }
            case .failure(let problem):
                failures[path] = problem
            }
        }
        for use in uses {
            if let problem = failures[use.path] {
                outcome.problems.append(.error(at: use.location, "'\(use.field)' names content/media/\(use.path), which \(problem.message)"))
            }
        }
        return outcome
    }

    /// Removes the cache entries that no build has used for an hour.
    public func pruneCache(keeping keys: Set<String>) {
        cache.prune(keeping: keys)
    }

    /// Everything that decides the bytes of the variants, besides the source: a change makes new entries.
    /// The leading version counts changes to this stage's processing and to the SVG rule.
    var settingsKey: String {
        "noticeboard-images 2 libvips \(Vips.version) widths \(settings.widths.map(String.init).joined(separator: ",")) quality \(settings.quality)"
    }

    private struct Published {
        var image: PublishedImage
        var cacheKey: String
        var processed: Bool
    }

    private func publish(_ path: String) -> Result<Published, ImageProblem> {
        let bytes: [UInt8]
        do throws(Diagnostic) {
            bytes = try files.read("content/media/" + path)
        } catch {
            return .failure(.unreadable(error.message))
        }
        let key = SHA256.hex(Array((settingsKey + "\n" + SHA256.hex(bytes)).utf8))
        if let cached = cache.load(key) {
            // The entry is the bytes', whatever they are called now: a name may have changed since.
            let source = cached.source, named = ImageFormat(fileName: path)
            guard source.format == named else { return .failure(.wrongExtension(holds: source.format, namedAs: named)) }
            // The size limit may have been lowered since the entry was stored.
            if source.format != .svg, source.width * source.height > settings.maxPixels {
                return .failure(.tooLarge(width: source.width, height: source.height, limitMegapixels: settings.maxMegapixels))
            }
            cache.markUsed(key)
            return .success(Published(image: image(path, key: key, entry: cached), cacheKey: key, processed: false))
        }
        switch bytes.withUnsafeBytes({ make($0, bytes: bytes, fileName: path) }) {
        case .failure(let problem):
            return .failure(problem)
        case .success(let (source, variants)):
            do throws(ImageProblem) {
                let entry = try cache.store(key, source: source, variants: variants)
                return .success(Published(image: image(path, key: key, entry: entry), cacheKey: key, processed: true))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Checks a source and makes its variants (none for an SVG, which is published as it is).
    private func make(_ buffer: UnsafeRawBufferPointer, bytes: [UInt8], fileName: String) -> Result<(SourceImage, [EncodedVariant]), ImageProblem> {
        guard ImageFormat(fileName: fileName) == .svg else {
            return SourceInspection.inspect(buffer, fileName: fileName, maxMegapixels: settings.maxMegapixels).flatMap { source in
                VariantEncoder.encode(buffer, source: source, plan: VariantPlan(source: source, settings: settings), quality: settings.quality).map { (source, $0) }
            }
        }
        // A photo named .svg is caught by its bytes; anything else is judged by parsing it as SVG.
        switch SourceInspection.sniff(buffer) {
        case .failure(let problem): return .failure(problem)
        case .success(let format?) where format != .svg: return .failure(.wrongExtension(holds: format, namedAs: .svg))
        default: break
        }
        return SVGSafety.check(bytes).map { ($0, []) }
    }

    /// Output paths name the source, the width and the cache key, so a changed image gets new URLs that no
    /// browser or CDN has cached: `media/rentals/kayak-640w.1f2e3d4c.webp`, and an SVG's, published as it is,
    /// `media/rentals/kayak-2.9a8b7c6d.svg`.
    private func image(_ path: String, key: String, entry: ImageCache.Entry) -> PublishedImage {
        let source = entry.source, stem = Self.stem(of: path)
        guard source.format != .svg else {
            let original = ImageVariant(
                outputPath: "media/\(stem).\(key.prefix(8)).svg", width: source.width, height: source.height, format: .svg,
                file: files.absolute("content/media/" + path))
            return PublishedImage(path: path, format: .svg, variants: [original])
        }
        let formats = VariantPlan(source: source, settings: settings).formats
        let variants = entry.variants.sorted {
            (formats.firstIndex(of: $0.format) ?? 0, $0.width) < (formats.firstIndex(of: $1.format) ?? 0, $1.width)
        }.map { variant in
            ImageVariant(
                outputPath: "media/\(stem)-\(variant.width)w.\(key.prefix(8)).\(variant.format.fileExtension)",
                width: variant.width, height: variant.height, format: variant.format, file: cache.path(key) + "/" + variant.file)
        }
        return PublishedImage(path: path, format: source.format, variants: variants)
    }

    /// The source's path below `content/media/` without its extension, slugged, so that URLs need no escaping
    /// (a srcset splits on spaces and commas; `#` and `?` end a path) and differ in more than case.
    private static func stem(of path: String) -> String {
        var segments = path.split(separator: "/").map { Slug.from(text: String($0)) }
        segments[segments.count - 1] = Slug.from(fileName: String(path.split(separator: "/").last ?? ""))
        return segments.map { $0.isEmpty ? "image" : $0 }.joined(separator: "/")
    }
}
