import Foundation
import CVips

/// libvips, started once per process on first use. Every call into it goes through this module.
enum Vips {
    /// Nil once libvips is running; otherwise why it could not start.
    static let startFailure: String? = nb_vips_start() == 0 ? nil : takeError()

    /// The version, part of the image cache's key: another libvips may encode differently.
    static var version: String { String(cString: vips_version_string()) }

    /// libvips's error text, cleared. Its buffer is shared by all threads, so while several images fail at
    /// once a message may carry another's text too; it is only shown, never parsed.
    static func takeError() -> String {
        guard let copy = vips_error_buffer_copy() else { return "libvips gave no reason" }
        defer { g_free(copy) }
        let lines = String(cString: copy).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.isEmpty ? "libvips gave no reason" : lines.joined(separator: "; ")
    }
}

/// One reference to a libvips image, released with the handle.
final class VipsImageHandle {
    let pointer: UnsafeMutablePointer<VipsImage>

    /// Nil for a failed call's NULL.
    init?(_ pointer: UnsafeMutablePointer<VipsImage>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    deinit { g_object_unref(pointer) }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    /// True when the EXIF orientation turns the image a quarter, so upright it is `height` wide.
    var isTurnedByOrientation: Bool { vips_image_get_orientation_swap(pointer) != 0 }
}
