import SiteModel

/// Which variants a source gets: every configured width narrower than the source and, when the source is
/// no wider than the widest configured width, the source's own width. Nothing is ever scaled up.
/// Each width comes in the source's format and, for JPEG and PNG, in WebP too (but for a variant past WebP's
/// size, `VariantEncoder.webpMaximumSide`).
struct VariantPlan: Equatable {
    var widths: [Int]
    var formats: [ImageFormat]

    init(source: SourceImage, settings: ImageSettings) {
        let narrower = settings.widths.filter { $0 < source.width }
        let widest = settings.widths.last ?? source.width
        widths = source.width <= widest ? narrower + [source.width] : narrower
        formats = source.format == .webp ? [.webp] : [source.format, .webp]
    }
}
