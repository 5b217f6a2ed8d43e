import CZlib
import Foundation

/// The size of `data` gzip-compressed as nginx compresses on the fly by default (level 1), for `sync` to
/// report what a body cost when the server compressed it without a Content-Length.
func gzipSize(_ data: Data, level: Int32 = 1) -> Int {
    var stream = z_stream()
    // 15 window bits, +16 for the gzip header and trailer.
    guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        return data.count
    }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(data.count))))
    var input = [UInt8](data)
    let result = input.withUnsafeMutableBufferPointer { source in
        output.withUnsafeMutableBufferPointer { target in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            stream.next_out = target.baseAddress
            stream.avail_out = UInt32(target.count)
            return deflate(&stream, Z_FINISH)
        }
    }
    return result == Z_STREAM_END ? Int(stream.total_out) : data.count
}
