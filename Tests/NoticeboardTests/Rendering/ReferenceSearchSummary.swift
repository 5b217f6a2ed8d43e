/// `SearchSummary.of` as it was first written, appending to a String's scalar view: the reference the
/// byte-wise version is compared with.
func referenceSearchSummary(_ markdown: String, length: Int) -> String {
    var text = String.UnicodeScalarView()
    var count = 0
    var skippingLinkTarget = false
    var previous: Unicode.Scalar = " "
    for scalar in markdown.unicodeScalars {
        if skippingLinkTarget {
            if scalar == ")" { skippingLinkTarget = false }
            continue
        }
        if scalar == "(" && previous == "]" {
            skippingLinkTarget = true
            continue
        }
        previous = scalar
        if "*_#`>[]|".unicodeScalars.contains(scalar) { continue }
        if scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || (!scalar.isASCII && scalar.properties.isWhitespace) {
            if count == 0 || text.last == " " { continue }
            text.append(" ")
        } else {
            text.append(scalar)
        }
        count += 1
        if count > length { break }
    }
    if text.last == " " { text.removeLast() }
    guard count > length else { return String(text) }
    // Cut at the last space, without leaving a combining mark or half a cluster behind.
    let cut = String(String(text).prefix(length))
    let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut[...]
    return atWord + "…"
}
