import LocatedYAML
import Markdown
import SiteModel

/// Reads a free page: YAML front matter between `---` lines, then Markdown.
///
///     ---
///     title: About us
///     description: Who runs this board.
///     nav: 1
///     ---
///     We are…
///
/// `sitePath`: the site's path below its host (`/catalogue/`), which the page's root-relative links must stay within.
public func decodePage(
    _ bytes: [UInt8], file: String, slug: String, markdown: MarkdownLimits = .standard, sitePath: String = "/", allowRawHTML: Bool = false
) -> (FreePage?, [Diagnostic]) {
    var problems = Problems(file: file)
    if let (offset, byte) = TextPosition.firstInvalidUTF8(in: bytes) {
        let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
        return (nil, [.error(at: SourceLocation(file: file, line: line, column: column), TextPosition.notUTF8Message(offset: offset, byte: byte))])
    }
    var text = String(decoding: bytes, as: UTF8.self)
    // A byte order mark, which some editors write and none shows.
    if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
    let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
    let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == "---", let closing = lines.dropFirst().firstIndex(of: "---") else {
        return (nil, [.error(at: SourceLocation(file: file), "a page starts with front matter between two '---' lines, holding at least its title")])
    }
    // Parsing the front matter with its opening line keeps line numbers those of the file.
    let frontMatter = lines[..<closing].joined(separator: "\n") + "\n"
    let root: YAMLNode?
    do throws(Diagnostic) {
        root = try parseYAML(Array(frontMatter.utf8), file: file)
    } catch {
        return (nil, [error])
    }
    guard let root, let settings = MappingReader(root, what: "a page's front matter", problems: &problems) else {
        return (nil, problems.list.isEmpty ? [.error(at: SourceLocation(file: file), "front matter needs at least a title")] : problems.list)
    }
    settings.reportUnknownKeys(known: ["title", "description", "nav"], what: "a page's front matter", problems: &problems)
    let title = settings.requiredString("title", problems: &problems)
    let nav = settings.int("nav", in: 0...1000, problems: &problems)
    let description = settings.string("description", problems: &problems) ?? ""
    guard let title, !problems.hasErrors else { return (nil, problems.list) }
    let body = lines[(closing + 1)...].joined(separator: "\n")
    let found: MarkdownCheck.Findings
    switch checkBody(lines[(closing + 1)...], body, closing: closing, file: file, MarkdownCheck(limits: markdown, sitePath: sitePath, allowRawHTML: allowRawHTML)) {
    case .failure(let error): return (nil, [error])
    case .success(let findings): found = findings
    }
    let leaving = found.linksLeavingSite.map { link in
        let line = closing + 1 + link.line
        let column = line < lines.count ? linkColumn(link, in: lines[line]) : 1
        return Diagnostic.warning(at: SourceLocation(file: file, line: line + 1, column: column),
                                  link.leavingMessage("the page", sitePath: sitePath, namingLine: false))
    }
    let filtered = found.filteredTags.map { tag in
        Diagnostic.warning(at: SourceLocation(file: file, line: closing + 2 + tag.line, column: 1), tag.message("the page", namingLine: false))
    }
    let heading = leadingTopHeading(lines[(closing + 1)...]).map { line, column in
        Diagnostic.warning(
            at: SourceLocation(file: file, line: line + 1, column: column),
            "the page starts with a '#' heading, and a page shows its title as its heading already (two top headings confuse screen readers and search engines); start with '##', or leave it out")
    }
    let page = FreePage(slug: slug, file: file, title: title, description: description, navigationOrder: nav, markdown: body)
    return (page, problems.list + leaving + filtered + (heading.map { [$0] } ?? []))
}

/// What the Markdown check finds in a page's `body` (its `lines`, after the front matter's `closing` line), or
/// the first error that stops the page: a control character written or made by a character reference, a
/// table too wide (checked first: cmark-gfm's time grows with the square of a row's cells), a limit broken.
private func checkBody(
    _ lines: ArraySlice<Substring>, _ body: String, closing: Int, file: String, _ check: MarkdownCheck
) -> Result<MarkdownCheck.Findings, Diagnostic> {
    // Lines are counted from 1, and the body starts on the line after the closing `---`.
    func at(_ bodyLine: Int, column: Int = 1) -> SourceLocation { SourceLocation(file: file, line: closing + 2 + bodyLine, column: column) }
    if let (line, column, scalar) = firstControlCharacter(in: lines) {
        return .failure(.error(
            at: SourceLocation(file: file, line: line + 1, column: column),
            "the page holds \(ControlCharacters.described(scalar)); remove it"))
    }
    let widest = widestTableLine(body)
    if widest.cells > maxTableCells { return .failure(.error(at: at(widest.line), tableTooWideMessage("the page", cells: widest.cells))) }
    let found = check.check(body)
    if let overrun = found.overrun { return .failure(.error(at: at(overrun.line ?? 0), overrun.message("the page"))) }
    if let control = found.controlCharacter {
        return .failure(.error(
            at: at(control.line),
            "the page has a character reference here that makes \(ControlCharacters.described(control.scalar)); remove it"))
    }
    return .success(found)
}

/// The 0-based line and 1-based column of a `# ` heading that is the body's first text, if it is one.
private func leadingTopHeading(_ lines: ArraySlice<Substring>) -> (Int, Int)? {
    guard let first = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
    let indent = lines[first].prefix { $0 == " " }.count
    let rest = lines[first].dropFirst(indent)
    guard indent <= 3, rest.hasPrefix("#"), rest.dropFirst().first.map({ $0 == " " || $0 == "\t" }) ?? true else { return nil }
    return (first, indent + 1)
}

/// Where a link starts in its line, counting characters (Unicode scalars) as every location does. cmark-gfm
/// counts bytes, and on a paragraph's later lines from where its first line starts: a column that does not
/// fall on the link's `[` or `!` gives way to the `[` (or `![`) before `(url` in the line, or to its start.
private func linkColumn(_ link: RootRelativeLink, in line: Substring) -> Int {
    let bytes = Array(line.utf8)
    let (open, bang) = (UInt8(ascii: "["), UInt8(ascii: "!"))
    var start = link.byteColumn - 1
    if !(start < bytes.count && (bytes[start] == open || bytes[start] == bang)) {
        let target = Array("(\(link.url)".utf8)
        let url = bytes.indices.first { bytes[$0...].starts(with: target) }
        start = url.flatMap { url in bytes[..<url].lastIndex(of: open) }.map { $0 > 0 && bytes[$0 - 1] == bang ? $0 - 1 : $0 } ?? 0
    }
    return TextPosition.lineAndColumn(ofByte: start, in: bytes).column
}

/// The first control character of a page's body that pages may not hold, with its 0-based line and 1-based column.
/// A carriage return is a line ending in Markdown, which cmark-gfm turns into a newline.
private func firstControlCharacter(in lines: ArraySlice<Substring>) -> (Int, Int, Unicode.Scalar)? {
    for (line, text) in zip(lines.indices, lines) {
        for (column, scalar) in text.unicodeScalars.enumerated() where scalar != "\r" && ControlCharacters.isRefused(scalar) {
            return (line, column + 1, scalar)
        }
    }
    return nil
}
