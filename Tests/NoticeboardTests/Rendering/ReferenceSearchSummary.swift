/// `SearchSummary.of` as it was first written, appending to a String's scalar view, with list items' markers
/// taken out of the lines first: the reference the byte-wise version is compared with.
func referenceSearchSummary(_ markdown: String, length: Int) -> String {
    // Lines split at every line feed scalar ("\r\n" is one Character, which a split of the String keeps whole).
    var lines = markdown.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        isDecoration(line) ? String.UnicodeScalarView() : withoutListMarker(line)
    }
    var joined = lines.removeFirst()
    for line in lines { joined.append("\n"); joined.append(contentsOf: line) }
    let markdown = String(joined)
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

/// A code fence with its info string, or a line of nothing but `-`, `=`, `:`, `|`, `*`, `_` and `+` (and spaces).
private func isDecoration(_ line: Substring.UnicodeScalarView) -> Bool {
    let text = String(String.UnicodeScalarView(line))
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { return true }
    let marks = trimmed.unicodeScalars.filter { "-=:|*_+".unicodeScalars.contains($0) }.count
    return marks > 0 && trimmed.unicodeScalars.allSatisfy { "-=:|*_+ \t\r".unicodeScalars.contains($0) }
}

/// A line with the `-` or `+` that marks a list item (after its indentation, before a space or tab) taken out.
private func withoutListMarker(_ line: Substring.UnicodeScalarView) -> String.UnicodeScalarView {
    let scalars = Array(line)
    let indent = scalars.prefix { $0 == " " || $0 == "\t" }.count
    guard indent + 1 < scalars.count, scalars[indent] == "-" || scalars[indent] == "+", scalars[indent + 1] == " " || scalars[indent + 1] == "\t" else {
        return String.UnicodeScalarView(scalars)
    }
    var kept = String.UnicodeScalarView(scalars[..<indent])
    kept.append(contentsOf: scalars[(indent + 1)...])
    return kept
}
