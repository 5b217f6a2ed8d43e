/// What one pass over a Markdown text tells before cmark-gfm sees it: the paragraph with the most emphasis and
/// link marks, and an upper bound on the memory cmark will take for its inlines, which it parses all at once
/// in `cmark_parser_finish`, with no way to stop it half-way.
///
/// Runs of lines between blank lines (lines of only spaces, tabs and '>') bound what cmark can do within one
/// paragraph, heading or table cell: none spans a blank line, nor does a link reference definition.
struct MarkdownScan {
    /// 0-based line where the run with the most marks starts, and its marks.
    private(set) var busiestParagraph = (line: 0, marks: 0)
    private(set) var inlineBytes = 0

    /// What cmark holds, at most, for the inline that each byte can start (cmark-gfm's special characters, its
    /// extensions', and the quotes and periods it keeps for smart punctuation): a node or two and a delimiter.
    /// Measured with cmark-gfm on 150,000 repeats of "a" and each, plus about 15%: '*' 504 bytes, '~' 434,
    /// '[' 421, '&', '<', '_', '!', '\\', ']' and a line break 364 to 379, '`', ':' and 'w' about 200; runs of
    /// '"', "'" and '.' about 190 a byte. A run of '*', '_' or '~' is one delimiter, so only its first counts.
    private static let inlineCost: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        let costs: [(String, Int)] = [("*", 576), ("[~", 512), ("]&<_!\\\n\r", 448), ("`:w\"'.", 256)]
        for (characters, cost) in costs {
            for character in characters.utf8 { table[Int(character)] = cost }
        }
        return table
    }()

    private static let delimiterRunBytes: Set<UInt8> = [UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~")]

    /// What cmark holds for the block containers a line can open, each '>' or list marker before its text:
    /// a block quote about 225 bytes, a list marker a list and an item.
    static let bytesPerContainer = 640

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var run = Run(start: 0)
        var line = 0
        var closers = 0
        var longestDefinitionRun = 0
        var emailCost = 0
        func endRun() {
            if run.marks > busiestParagraph.marks { busiestParagraph = (run.start, run.marks) }
            closers += run.closers
            if run.mayDefineReference { longestDefinitionRun = max(longestDefinitionRun, run.length) }
            // cmark-gfm's email autolinker copies the rest of the text at every '@': quadratic in one text node.
            emailCost += run.ats * run.length
        }
        var blankSoFar = true
        var lineStart = 0
        for (offset, byte) in bytes.enumerated() {
            let continuesRun = offset > 0 && bytes[offset - 1] == byte && Self.delimiterRunBytes.contains(byte)
            inlineBytes += continuesRun ? 0 : Self.inlineCost[Int(byte)]
            switch byte {
            case UInt8(ascii: "\n"):
                if blankSoFar {
                    endRun()
                    run = Run(start: line + 1)
                } else {
                    run.length += offset + 1 - lineStart
                }
                line += 1
                lineStart = offset + 1
                blankSoFar = true
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ">"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "["), UInt8(ascii: "!"):
                run.marks += 1
            case UInt8(ascii: "]"):
                run.marks += 1
                run.closers += 1
            case UInt8(ascii: ":"):
                if offset > 0 && bytes[offset - 1] == UInt8(ascii: "]") { run.mayDefineReference = true }
            case UInt8(ascii: "@"):
                run.ats += 1
            default:
                break
            }
            blankSoFar = false
        }
        run.length += bytes.count - lineStart
        endRun()
        // A reference link copies its definition's URL and title, each at most the definition's run.
        inlineBytes += emailCost + closers * 2 * longestDefinitionRun
    }

    private struct Run {
        let start: Int
        var length = 0
        var marks = 0
        var closers = 0
        var ats = 0
        var mayDefineReference = false
    }

    /// At most the bytes cmark takes for the block containers a line can open: one per '>' or list marker
    /// before its text (a line of 100,000 '>' makes 100,000 nested block quotes, 22 MB, at once).
    static func blockBytes(ofLine line: UnsafeBufferPointer<UInt8>) -> Int {
        var containers = 0
        for byte in line {
            switch byte {
            case UInt8(ascii: ">"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "."), UInt8(ascii: ")"):
                containers += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            default:
                return containers * bytesPerContainer
            }
        }
        return containers * bytesPerContainer
    }

    /// The line (0-based) whose own '>' and list markers nest deepest, and how deep: refused before cmark
    /// builds the nesting (20,000 paragraphs of 200 '>' took 650 MB). A '-', '+' or '*' counts only as a list
    /// marker, followed by a space, so a rule of dashes is not nesting. Nesting built up over several lines
    /// is found in the parsed document.
    static func deepestLine(_ bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, depth: Int) {
        var deepest = (line: 0, depth: 0)
        var line = 0
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let depth = nesting(ofLine: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            if depth > deepest.depth { deepest = (line, depth) }
            line += 1
            start = end + 1
        }
        return deepest
    }

    private static func nesting(ofLine line: UnsafeBufferPointer<UInt8>) -> Int {
        func endsMarker(_ index: Int) -> Bool {
            index >= line.count || line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") || line[index] == UInt8(ascii: "\r")
        }
        var depth = 0
        var index = 0
        while index < line.count {
            switch line[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
            case UInt8(ascii: ">"):
                depth += 1
                index += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
                guard endsMarker(index + 1) else { return depth }
                depth += 1
                index += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var end = index
                while end < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[end]) { end += 1 }
                guard end < line.count, line[end] == UInt8(ascii: ".") || line[end] == UInt8(ascii: ")"), endsMarker(end + 1) else { return depth }
                depth += 1
                index = end + 1
            default:
                return depth
            }
        }
        return depth
    }
}
