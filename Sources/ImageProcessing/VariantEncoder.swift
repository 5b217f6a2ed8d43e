import CVips
import CWebPMux
import SiteModel

/// One encoded variant, ready to be stored.
struct EncodedVariant {
    var width: Int
    var height: Int
    var format: ImageFormat
    var bytes: [UInt8]
}

/// Makes a source's variants with libvips: decoded once (JPEG shrinking on load), turned upright from its EXIF
/// orientation, converted to 8-bit sRGB, scaled to the widest variant and kept in memory; the narrower ones
/// are scaled from that. The encoders leave out metadata (and WebP files lose their metadata chunks through
/// libwebpmux, as libvips 8.14 writes them regardless), so no EXIF, XMP, IPTC, ICC profile or comment
/// reaches a published file.
enum VariantEncoder {
    static func encode(_ bytes: UnsafeRawBufferPointer, source: SourceImage, plan: VariantPlan, quality: Int) -> Result<[EncodedVariant], ImageProblem> {
        guard let widestWidth = plan.widths.last else { return .success([]) }
        guard let decoded = VipsImageHandle(nb_vips_decode(bytes.baseAddress, bytes.count, Int32(shrink(source, to: widestWidth)))),
            let upright = VipsImageHandle(nb_vips_upright_srgb(decoded.pointer, Int32(widestWidth))),
            let web = VipsImageHandle(nb_vips_web_colour(upright.pointer)),
            let widest = VipsImageHandle(nb_vips_in_memory(web.pointer))
        else { return .failure(.damaged(Vips.takeError())) }
        var variants: [EncodedVariant] = []
        for width in plan.widths {
            let image: VipsImageHandle
            if width == widest.width {
                image = widest
            } else if let scaled = VipsImageHandle(nb_vips_scale(widest.pointer, Int32(width))) {
                image = scaled
            } else {
                return .failure(.damaged(Vips.takeError()))
            }
            // A tall screenshot's widest variant may be past WebP's size; it keeps its source format's variant.
            for format in plan.formats where format != .webp || max(image.width, image.height) <= webpMaximumSide {
                guard let encoded = save(image, as: format, quality: quality) else { return .failure(.damaged(Vips.takeError())) }
                variants.append(EncodedVariant(width: image.width, height: image.height, format: format, bytes: encoded))
            }
        }
        return .success(variants)
    }

    /// The longest side a WebP file can hold: it stores each side in 14 bits.
    static let webpMaximumSide = 16383

    /// JPEG decodes at 1/2, 1/4 or 1/8 of its size for a fraction of the work; the largest shrink that still
    /// leaves the widest variant's pixels is taken.
    static func shrink(_ source: SourceImage, to width: Int) -> Int {
        guard source.format == .jpeg else { return 1 }
        return [8, 4, 2].first { source.width / $0 >= width } ?? 1
    }

    private static func save(_ image: VipsImageHandle, as format: ImageFormat, quality: Int) -> [UInt8]? {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32
        switch format {
        case .jpeg: status = nb_vips_save_jpeg(image.pointer, Int32(quality), &buffer, &length)
        case .png: status = nb_vips_save_png(image.pointer, &buffer, &length)
        case .webp: status = nb_vips_save_webp(image.pointer, Int32(quality), &buffer, &length)
        case .svg: return nil
        }
        guard status == 0, let buffer else { return nil }
        defer { g_free(buffer) }
        guard format == .webp else { return Array(UnsafeRawBufferPointer(start: buffer, count: length)) }
        var stripped = WebPData()
        guard nb_webp_without_metadata(buffer.assumingMemoryBound(to: UInt8.self), length, &stripped) == 0 else { return nil }
        defer { nb_webp_free(&stripped) }
        return Array(UnsafeBufferPointer(start: stripped.bytes, count: stripped.size))
    }
}
