/// The image formats the site publishes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, webp, svg

    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    public var mediaType: String { self == .svg ? "image/svg+xml" : "image/" + rawValue }

    /// The format a file name promises: `.jpg` and `.jpeg` are JPEG; nil for other extensions.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "svg": self = .svg
        default: return nil
        }
    }
}

/// One published file of an image.
public struct ImageVariant: Sendable, Hashable {
    /// Relative to the output folder: `media/rentals/kayak-640w.1f2e3d4c.webp`.
    public var outputPath: String
    public var width: Int
    public var height: Int
    public var format: ImageFormat
    /// The absolute path of the bytes to publish (in the image cache, or the source itself for SVG).
    public var file: String

    public init(outputPath: String, width: Int, height: Int, format: ImageFormat, file: String) {
        self.outputPath = outputPath
        self.width = width
        self.height = height
        self.format = format
        self.file = file
    }
}

/// What the site publishes for one file below `content/media/`: re-encoded variants of a photo (never
/// the original bytes), or an SVG that passed the safety rule, as it is.
public struct PublishedImage: Sendable, Hashable {
    /// Below `content/media/`, as listings name it.
    public var path: String
    public var format: ImageFormat
    /// In the source's format by ascending width, then WebP by ascending width (for a JPEG or PNG).
    public var variants: [ImageVariant]

    public init(path: String, format: ImageFormat, variants: [ImageVariant]) {
        self.path = path
        self.format = format
        self.variants = variants
    }

    /// The file an `<img src>` names: the widest variant in the source's format.
    public var fallback: ImageVariant { variants.last { $0.format == format }! }

    /// Variants in one format, by ascending width.
    public func variants(in format: ImageFormat) -> [ImageVariant] { variants.filter { $0.format == format } }
}
