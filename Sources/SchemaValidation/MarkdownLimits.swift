/// cmark-gfm's table extension takes time quadratic in the cells of a row: one line of 40,000 '|' took
/// 50 s to render. No real table comes near this many columns.
let maxTableCells = 500

/// The line (0-based, within `text`) with the most '|' characters, and how many it has.
func widestTableLine(_ text: String) -> (line: Int, cells: Int) {
    var widest = (line: 0, cells: 0)
    var line = 0
    var current = 0
    for byte in text.utf8 {
        if byte == UInt8(ascii: "|") {
            current += 1
            if current > widest.cells { widest = (line, current) }
        } else if byte == UInt8(ascii: "\n") {
            line += 1
            current = 0
        }
    }
    return widest
}

/// The message for Markdown with a line of too many '|'.
func tableTooWideMessage(_ what: String, cells: Int) -> String {
    "\(what) has a line of \(cells) '|' characters; a Markdown table may have at most \(maxTableCells) columns"
}
