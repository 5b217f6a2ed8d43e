/// How the images that listings name are published: the `images:` mapping of `content/site.yaml`.
public struct ImageSettings: Sendable, Hashable {
    /// Widths of the variants, in pixels, ascending; a source narrower than one is never scaled up to it.
    public var widths: [Int]
    /// JPEG and WebP quality, 1 to 100.
    public var quality: Int
    /// Sources with more pixels than this are refused from their header, before any decoding.
    public var maxMegapixels: Int

    public static let standard = ImageSettings(widths: [320, 640, 1280], quality: 80, maxMegapixels: 100)

    public init(widths: [Int], quality: Int, maxMegapixels: Int) {
        self.widths = Array(Set(widths)).sorted()
        self.quality = quality
        self.maxMegapixels = maxMegapixels
    }

    public var maxPixels: Int { maxMegapixels * 1_000_000 }
}
