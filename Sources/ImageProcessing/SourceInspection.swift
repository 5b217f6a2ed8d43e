import CVips
import SiteModel

/// A source image as its header describes it, before any pixel is decoded.
struct SourceImage: Equatable {
    var format: ImageFormat
    /// Upright: after the EXIF orientation is applied.
    var width: Int
    var height: Int
}

/// Decides what a media file is from its bytes (libvips's format sniffing, not its name), checks that its name
/// agrees, and reads its size from the header alone, so a decompression bomb is refused before decoding.
enum SourceInspection {
    /// Formats libvips recognises but the site does not publish, by loader (`VipsForeignLoadNsgifBuffer` → `nsgif`).
    private static let otherFormats = [
        "nsgif": "GIF", "gif": "GIF", "tiff": "TIFF", "heif": "HEIF or AVIF", "pdf": "PDF", "pdfium": "PDF", "jp2k": "JPEG 2000",
        "jxl": "JPEG XL", "ppm": "PPM", "rad": "Radiance", "fits": "FITS", "vips": "VIPS", "openexr": "OpenEXR",
        "matrix": "matrix", "csv": "CSV", "analyze": "Analyze", "mat": "MATLAB", "openslide": "OpenSlide",
        "magick": "ImageMagick", "magick7": "ImageMagick",
    ]

    /// The format the bytes hold, or nil when no libvips loader recognises them (SVG is not always sniffed,
    /// so a `.svg` file is judged by parsing it).
    static func sniff(_ bytes: UnsafeRawBufferPointer) -> Result<ImageFormat?, ImageProblem> {
        guard let loader = vips_foreign_find_load_buffer(bytes.baseAddress, bytes.count) else {
            _ = Vips.takeError()
            return .success(nil)
        }
        var family = String(cString: loader).lowercased()
        family = String(family.dropFirst(family.hasPrefix("vipsforeignload") ? "vipsforeignload".count : 0))
        if family.hasSuffix("buffer") { family = String(family.dropLast("buffer".count)) }
        switch family {
        case "jpeg": return .success(.jpeg)
        case "png", "spng": return .success(.png)
        case "webp": return .success(.webp)
        case "svg": return .success(.svg)
        default: return .failure(.unsupported(format: otherFormats[family] ?? family.uppercased()))
        }
    }

    /// A raster source's format and upright size; `.svg` files are left to `SVGSafety`.
    static func inspect(_ bytes: UnsafeRawBufferPointer, fileName: String, maxMegapixels: Int) -> Result<SourceImage, ImageProblem> {
        let named = ImageFormat(fileName: fileName)
        let format: ImageFormat
        switch sniff(bytes) {
        case .failure(let problem): return .failure(problem)
        case .success(nil): return .failure(.notAnImage)
        case .success(let found?): format = found
        }
        guard format == named else { return .failure(.wrongExtension(holds: format, namedAs: named)) }
        guard let header = VipsImageHandle(nb_vips_header(bytes.baseAddress, bytes.count)) else {
            return .failure(.damaged(Vips.takeError()))
        }
        let upright = header.isTurnedByOrientation
            ? SourceImage(format: format, width: header.height, height: header.width)
            : SourceImage(format: format, width: header.width, height: header.height)
        if upright.width * upright.height > maxMegapixels * 1_000_000 {
            return .failure(.tooLarge(width: upright.width, height: upright.height, limitMegapixels: maxMegapixels))
        }
        return .success(upright)
    }
}
