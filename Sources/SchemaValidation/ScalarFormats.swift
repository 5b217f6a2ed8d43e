import Foundation

/// An absolute http(s) URL with a host and no spaces or control characters.
func isValidURL(_ text: String) -> Bool {
    guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
        let components = URLComponents(string: text),
        let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
        let host = components.host, !host.isEmpty, !host.hasPrefix("."), !host.hasSuffix(".")
    else { return false }
    return true
}

/// `local@domain.tld`: one `@`, a dot-atom local part, and a domain of letter/digit/hyphen labels.
func isValidEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last,
        (1...64).contains(local.utf8.count), (3...253).contains(domain.utf8.count),
        !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
    else { return false }
    let localAllowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+/=?^_`{|}~-")
    guard local.allSatisfy({ localAllowed.contains($0) }) else { return false }
    let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, let top = labels.last, top.count >= 2, top.allSatisfy(\.isLetter) else { return false }
    return labels.allSatisfy { label in
        (1...63).contains(label.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
            && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}

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
    if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) {
        return "it has an empty, '.' or '..' segment; it must stay inside content/media/"
    }
    return nil
}
