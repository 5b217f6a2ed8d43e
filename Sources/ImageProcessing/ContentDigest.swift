import CCrypto

/// SHA-256 in lowercase hex (OpenSSL's EVP interface), naming sources and settings in the image cache.
enum ContentDigest {
    static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1, "OpenSSL could not compute SHA-256")
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.prefix(Int(length)).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
