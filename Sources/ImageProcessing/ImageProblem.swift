import SiteModel

/// Why an image cannot be published, phrased to follow "content/media/x.jpg, which …".
enum ImageProblem: Error, Equatable {
    case unreadable(String)
    case notAnImage
    case unsupported(format: String)
    case wrongExtension(holds: ImageFormat, namedAs: ImageFormat?)
    case tooLarge(width: Int, height: Int, limitMegapixels: Int)
    case damaged(String)
    case notWellFormedSVG(String, line: Int)
    /// An SVGZ file named .svg: browsers read an SVG file uncompressed.
    case compressedSVG
    case unsafeSVG(String, line: Int)
    case cacheUnwritable(String)

    var message: String {
        switch self {
        case .unreadable(let reason):
            return "cannot be read: \(reason)"
        case .notAnImage:
            return "is not an image Noticeboard can read: its bytes are not JPEG, PNG, WebP or SVG"
        case .unsupported(let format):
            return "is a \(format) image; Noticeboard publishes JPEG, PNG, WebP and SVG, so convert it to one of those"
        case .wrongExtension(let holds, let named):
            let name = named.map { "its name says \($0.displayName)" } ?? "its name has another extension"
            return "holds \(holds.displayName) data but \(name); rename it to end in .\(holds.fileExtension)"
        case .tooLarge(let width, let height, let limit):
            let megapixels = (Double(width) * Double(height) / 1e6 * 10).rounded() / 10
            return "is \(width) × \(height) pixels (\(megapixels) megapixels), over the limit of \(limit) megapixels, and was refused"
                + " before decoding; make it smaller, or raise images.max_megapixels in content/site.yaml"
        case .damaged(let reason):
            return "is damaged and cannot be decoded (\(reason))"
        case .notWellFormedSVG(let reason, let line):
            return "is not well-formed SVG: \(reason) at line \(line) of that file"
        case .compressedSVG:
            return "is gzip-compressed SVG (an .svgz file), which a browser does not read as an image file; publish it uncompressed"
        case .unsafeSVG(let what, let line):
            return "is an SVG with \(what) at line \(line) of that file; SVG images may not hold scripts, event handlers,"
                + " foreignObject or references to other files"
        case .cacheUnwritable(let reason):
            return "could not be stored in the image cache (\(reason))"
        }
    }
}

extension ImageFormat {
    var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .svg: return "SVG"
        }
    }
}
