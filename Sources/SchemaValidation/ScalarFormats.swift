import Foundation
import SiteModel

/// Whether text shows nothing: only whitespace and characters that are never drawn (a zero-width space, a
/// word joiner), so that a required title of them would be an empty heading.
func isBlank(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }
}

/// An absolute http(s) URL with a host and no spaces or control characters.
func isValidURL(_ text: String) -> Bool {
    urlFlaw(text) == nil
}

/// Why `text` is no absolute http(s) URL, as a hint for an error message that quotes no part of it (empty
/// where the shape is wrong throughout); nil when it is one. Beyond what URLComponents takes: the host has
/// no empty label (`example..org`), a port is one there can be, and each `%` starts an escape. Browsers
/// mend the rest each their own way, so visitors would not all reach what was written.
func urlFlaw(_ text: String) -> String? {
    guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
        let components = URLComponents(string: text),
        let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
        let host = components.host, !host.isEmpty
    else { return "" }
    if !host.hasPrefix("["), host.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
        return " (its host has an empty part between dots)"
    }
    if let port = components.port, !(1...65535).contains(port) { return " (its port is not one from 1 to 65535)" }
    if !hasWellFormedEscapes(text) { return " ('%' starts an escape of two hex digits, such as %20; write a '%' itself as %25)" }
    return nil
}

/// Whether every `%` is followed by two hex digits.
private func hasWellFormedEscapes(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    // `byte & ~0x20` is the upper case of a letter.
    func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte & ~0x20) }
    return bytes.indices.allSatisfy { index in
        bytes[index] != UInt8(ascii: "%") || (index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2]))
    }
}

/// A valid URL as published: in ASCII, as JSON Schema's `uri` and older URL parsers take it. A host in
/// another script becomes its IDNA form (`café.example` → `xn--caf-dma.example`, through swift-foundation's
/// URLComponents); after it, each scalar a URI may not hold (`ü`, `"`, `<`) is percent-encoded as UTF-8, and
/// everything else, escapes already written (`%20`) included, is kept as it is.
func publishedURL(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { !uriScalars.contains($0) }), let schemeEnd = text.range(of: "://")?.upperBound else { return text }
    let authorityEnd = text[schemeEnd...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
    let authority = text[schemeEnd..<authorityEnd]
    let user = authority.lastIndex(of: "@").map { authority[...$0] } ?? ""
    var host = String(authority.dropFirst(user.count))
    if !host.utf8.allSatisfy({ $0 < 0x80 }) {
        // The port, if any, is ASCII: URLComponents gives the host alone.
        guard let components = URLComponents(string: "http://" + host + "/"), let ascii = components.encodedHost else { return text }
        host = ascii + (components.port.map { ":\($0)" } ?? "")
    }
    return String(text[..<schemeEnd]) + percentEncoded(user) + host + percentEncoded(text[authorityEnd...])
}

/// `text` with each scalar a URI may not hold written as `%XX` of its UTF-8 bytes.
private func percentEncoded(_ text: Substring) -> String {
    text.addingPercentEncoding(withAllowedCharacters: uriScalars) ?? String(text)
}

/// What a URI holds as it is: printable ASCII but a space and `"<>\^`{|}` (`%` too, so escapes already
/// written stay).
private let uriScalars = CharacterSet(charactersIn: Unicode.Scalar(0x21)...Unicode.Scalar(0x7E)).subtracting(CharacterSet(charactersIn: #""<>\^`{|}"#))

/// `local@domain.tld`: one `@`, a dot-atom local part, and a domain of letter/digit/hyphen labels.
/// Checked as bytes: every listing with an email field passes here.
func isValidEmail(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    let dot = UInt8(ascii: "."), hyphen = UInt8(ascii: "-")
    guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), !bytes[(at + 1)...].contains(UInt8(ascii: "@")) else { return false }
    let local = bytes[..<at], domain = bytes[(at + 1)...]
    guard (1...64).contains(local.count), (3...253).contains(domain.count), local.first != dot, local.last != dot else { return false }
    var previous: UInt8 = 0
    for byte in local {
        guard byte < 128, emailLocalCharacters[Int(byte)], !(byte == dot && previous == dot) else { return false }
        previous = byte
    }
    func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    let labels = domain.split(separator: dot, omittingEmptySubsequences: false)
    guard labels.count >= 2, let top = labels.last, top.count >= 2, top.allSatisfy(isLetter) else { return false }
    return labels.allSatisfy { label in
        (1...63).contains(label.count) && label.first != hyphen && label.last != hyphen
            && label.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == hyphen }
    }
}

/// The ASCII characters an email's local part may hold, by byte.
private let emailLocalCharacters: [Bool] = {
    var allowed = [Bool](repeating: false, count: 128)
    for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+/=?^_`{|}~-".utf8 { allowed[Int(byte)] = true }
    return allowed
}()

/// A phone number as people write it: digits with spaces, dots, dashes or brackets, an optional leading `+`,
/// and 7 to 15 digits (the E.164 maximum).
func isValidPhone(_ text: String) -> Bool {
    var digits = 0
    for (index, character) in text.enumerated() {
        switch character {
        case "0"..."9": digits += 1
        case "+": if index != 0 { return false }
        case " ", "-", ".", "(", ")": continue
        default: return false
        }
    }
    return (7...15).contains(digits)
}

/// Why a path written in a listing may not name a file below `content/media/`, or nil when it may.
func unsafeMediaPathReason(_ path: String) -> String? {
    if path.isEmpty { return "it is empty" }
    if path.utf8.contains(0) { return "it contains a NUL byte" }
    if path.hasPrefix("/") { return "it is absolute; write it relative to content/media/" }
    if path.contains("\\") { return "it contains a backslash; use /" }
    if path.contains("%") { return "it contains '%'; write the file name as it is, not URL-encoded" }
    if RelativePath.hasEmptyOrDotSegment(path) {
        return "it has an empty, '.' or '..' segment; it must stay inside content/media/"
    }
    return nil
}
