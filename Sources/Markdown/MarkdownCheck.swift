import CCmarkGFM
import Foundation
import SiteModel

/// Checks a Markdown field against the site's `MarkdownLimits` before anything renders it: counts the
/// emphasis and link marks of each paragraph, parses it with a memory budget, then walks the document for
/// nesting, table cells and the HTML it would render to, and for links that leave the site's path.
public struct MarkdownCheck: Sendable {
    public let limits: MarkdownLimits
    /// The site's path below its host (`/catalogue/`), which root-relative links must stay within.
    public let sitePath: String
    /// The site's `allow_raw_html`: then the tags the tag filter still escapes are found.
    public let allowRawHTML: Bool

    /// cmark-gfm 0.29.0.gfm.6 matches emphasis and link delimiters in time that grows faster than their
    /// square within one paragraph: 160,000 of them in 1.8 MB of prose took 34 s. No real paragraph comes
    /// near this many; a paragraph of 5,000 takes under 10 ms.
    public static let maxParagraphMarks = 5000

    public init(limits: MarkdownLimits, sitePath: String = "/", allowRawHTML: Bool = false) {
        self.limits = limits
        self.sitePath = sitePath
        self.allowRawHTML = allowRawHTML
    }

    /// What the check of one text found.
    public struct Findings: Sendable, Equatable {
        /// The first limit the text breaks, or nil.
        public var overrun: MarkdownOverrun?
        /// Its root-relative links and images outside the site's path (`/about/` on a site at `/catalogue/`),
        /// which lead off the site; none when a limit is broken.
        public var linksLeavingSite: [RootRelativeLink] = []
        /// With raw HTML allowed, the tags in its raw HTML that the tag filter escapes; none when a limit is broken.
        public var filteredTags: [FilteredTag] = []
        /// The first character its text decodes to that no text may hold (`&#8238;` is U+202E, `&#27;` an ESC:
        /// the file's own text was checked for them, not what its character references make), and its line
        /// counted from 0; nil when a limit is broken.
        public var controlCharacter: ControlCharacterFound?
    }

    public struct ControlCharacterFound: Sendable, Equatable {
        public let scalar: Unicode.Scalar
        public let line: Int
    }

    /// The first limit `markdown` breaks, or nil.
    public func overrun(_ markdown: String) -> MarkdownOverrun? {
        check(markdown).overrun
    }

    public func check(_ markdown: String) -> Findings {
        var text = markdown
        let (scan, deepest) = text.withUTF8 { (MarkdownScan($0), MarkdownScan.deepestLine($0)) }
        if deepest.depth > limits.maxNesting { return Findings(overrun: .nesting(deepest.depth, limit: limits.maxNesting)) }
        let busiest = scan.busiestParagraph
        if busiest.marks > Self.maxParagraphMarks { return Findings(overrun: .paragraphMarks(busiest.marks, line: busiest.line)) }
        let size = markdown.utf8.count
        let budget = CmarkSession.MemoryBudget(limit: limits.maxMemoryBytes(forSource: size), inlineBytes: scan.inlineBytes)
        do throws(CmarkSession.OverMemory) {
            // SOURCEPOS: inline positions count the newlines of code spans and raw HTML before them.
            return try CmarkSession.withDocument(
                markdown, options: CMARK_OPT_DEFAULT | CMARK_OPT_SOURCEPOS, budget: budget
            ) { parsed in
                let shape = DocumentShape(parsed.document)
                if let overrun = overrun(shape, size: size) { return Findings(overrun: overrun) }
                var seen: Set<String> = []
                // Each URL once: a link repeated through a text is one thing to mend.
                return Findings(
                    overrun: nil, linksLeavingSite: shape.rootRelativeLinks.filter { leavesSite($0.url) && seen.insert($0.url).inserted },
                    filteredTags: allowRawHTML ? shape.filteredTags : [], controlCharacter: shape.controlCharacter)
            }
        } catch {
            return Findings(overrun: .memory(
                bytes: error.bytes, source: size, limit: limits.maxMemoryBytes(forSource: size), growth: limits.maxMemoryGrowth))
        }
    }

    private func overrun(_ shape: DocumentShape, size: Int) -> MarkdownOverrun? {
        if shape.nesting > limits.maxNesting { return .nesting(shape.nesting, limit: limits.maxNesting) }
        if shape.tableCells > limits.maxTableCells { return .tableCells(shape.tableCells, limit: limits.maxTableCells) }
        let maxHTML = limits.maxHTMLBytes(forSource: size)
        return shape.htmlBytes > maxHTML ? .html(bytes: shape.htmlBytes, source: size, limit: maxHTML, growth: limits.maxHTMLGrowth) : nil
    }

    /// `/catalogue` (`?q=x`, `#top`) and what is below `/catalogue/` stay on a site at `/catalogue/`.
    private func leavesSite(_ url: String) -> Bool {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        return !path.hasPrefix(sitePath) && path + "/" != sitePath
    }
}

/// A link or image of a Markdown text whose URL starts with one `/`.
public struct RootRelativeLink: Sendable, Equatable {
    public let url: String
    /// Its line in the text, from 0.
    public let line: Int
    /// The byte of its line where it starts (its `[`), from 1.
    public let byteColumn: Int

    /// Why a link outside the site's path is wrong. `what` names the field or page: `'bio'`, `the page`;
    /// `namingLine` when the message's location is not the link's own line.
    public func leavingMessage(_ what: String, sitePath: String, namingLine: Bool) -> String {
        // Shortened, and control characters (a decoded `&#10;`) shown as pictures: a message is one line.
        let shown = { (text: String) in ControlCharacters.shown(text.count > 80 ? String(text.prefix(80)) + "…" : text) }
        return "\(what) links to '\(shown(url))'\(namingLine ? " (line \(line + 1) of its text)" : ""), outside the site, which lives at \(sitePath); "
            + "write '\(shown(sitePath + url.dropFirst()))' for a page of this site, or the full address for another"
    }
}

/// A limit of `MarkdownLimits` that a field breaks, with the figures its message gives.
public enum MarkdownOverrun: Sendable, Equatable {
    case paragraphMarks(Int, line: Int)
    case nesting(Int, limit: Int)
    case tableCells(Int, limit: Int)
    case html(bytes: Int, source: Int, limit: Int, growth: Int)
    case memory(bytes: Int, source: Int, limit: Int, growth: Int)

    /// The line of the text (0-based) that the problem starts at, when it is one line's.
    public var line: Int? {
        if case .paragraphMarks(_, let line) = self { line } else { nil }
    }

    /// `what` names the field or page: `'bio'`, `the page`.
    public func message(_ what: String) -> String {
        let raise = { (setting: String) in "; raise markdown.\(setting) in content/site.yaml to allow more" }
        switch self {
        case .paragraphMarks(let marks, let line):
            return "\(what) has a paragraph (from line \(line + 1) of its text) with \(marks) emphasis and link marks ('*', '_', '~', '[', ']', '!'); "
                + "cmark-gfm takes time quadratic in them, so a paragraph may have at most \(MarkdownCheck.maxParagraphMarks): split it with blank lines"
        case .nesting(let depth, let limit):
            return "\(what) nests Markdown \(depth) deep (block quotes, lists, emphasis, links); the limit is \(limit)" + raise("max_nesting")
        case .tableCells(let cells, let limit):
            return "\(what) has tables of \(cells) cells, counting the empty cells that pad each row to its header's width; the limit is \(limit)"
                + raise("max_table_cells")
        case .html(let bytes, let source, let limit, let growth):
            return "\(what) would render to \(bytes) bytes of HTML from \(source) bytes of Markdown; the limit is \(limit) (16 KiB plus \(growth) times its size)"
                + raise("max_html_growth")
        case .memory(let bytes, let source, let limit, let growth):
            return "\(what) needs over \(bytes) bytes of memory to parse \(source) bytes of Markdown (wide tables, deep nesting and dense markup take most); the limit is \(limit) (256 KiB plus \(growth) times its size)"
                + raise("max_memory_growth")
        }
    }
}

/// What a parsed document would cost to render: its deepest nesting, its table cells, and an upper bound on
/// the bytes of HTML cmark-gfm writes for it (each node's tags, and its text, URL and title as escaped).
struct DocumentShape {
    private(set) var nesting = 0
    private(set) var tableCells = 0
    private(set) var htmlBytes = 0
    /// Links and images whose URL starts with one `/` (not `//`, which names a host).
    private(set) var rootRelativeLinks: [RootRelativeLink] = []
    /// The tags of its raw HTML that the tag filter escapes.
    private(set) var filteredTags: [FilteredTag] = []
    /// The first refused character of its text and titles, as decoded from character references.
    private(set) var controlCharacter: MarkdownCheck.ControlCharacterFound?

    init(_ document: OpaquePointer) {
        guard let iterator = cmark_iter_new(document) else { fatalError("cmark-gfm could not allocate an iterator") }
        defer { cmark_iter_free(iterator) }
        var depth = 0
        let tableCell = noticeboard_table_cell_type()
        // Every node that nests is a container, which the iterator enters and leaves; leaves are only entered.
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            let nests = Self.nestingTypes.contains(type.rawValue)
            if event == CMARK_EVENT_EXIT {
                if nests { depth -= 1 }
                continue
            }
            if nests {
                depth += 1
                nesting = max(nesting, depth)
            }
            if type == tableCell { tableCells += 1 }
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, let link = Self.rootRelativeLink(node) { rootRelativeLinks.append(link) }
            if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node) {
                filteredTags += FilteredTag.found(in: String(cString: literal), line: max(0, Int(cmark_node_get_start_line(node)) - 1))
            }
            if controlCharacter == nil, let scalar = Self.controlCharacter(in: node) {
                controlCharacter = .init(scalar: scalar, line: max(0, Int(cmark_node_get_start_line(node)) - 1))
            }
            htmlBytes += (type == tableCell ? Self.cellTagBytes : Self.tagBytes(type)) + escapedBytes(cmark_node_get_literal(node), htmlEscapes)
                + escapedBytes(cmark_node_get_fence_info(node), htmlEscapes)
                + escapedBytes(cmark_node_get_url(node), hrefEscapes) + escapedBytes(cmark_node_get_title(node), htmlEscapes)
        }
    }

    private static func controlCharacter(in node: OpaquePointer) -> Unicode.Scalar? {
        for text in [cmark_node_get_literal(node), cmark_node_get_title(node)] {
            guard let text else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
            if let scalar = ControlCharacters.first(inUTF8: bytes) { return scalar }
        }
        return nil
    }

    private static func rootRelativeLink(_ node: OpaquePointer) -> RootRelativeLink? {
        guard let pointer = cmark_node_get_url(node), pointer.pointee == CChar(UInt8(ascii: "/")),
            pointer.advanced(by: 1).pointee != CChar(UInt8(ascii: "/"))
        else { return nil }
        // cmark-gfm gives links and images their own start line and column, from 1.
        return RootRelativeLink(
            url: String(cString: pointer), line: max(0, Int(cmark_node_get_start_line(node)) - 1),
            byteColumn: max(1, Int(cmark_node_get_start_column(node))))
    }

    /// Read after the first parse, which registers the extensions and with them CMARK_NODE_STRIKETHROUGH.
    private static let nestingTypes = Set([
        CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK, CMARK_NODE_IMAGE,
        noticeboard_strikethrough_type(),
    ].map(\.rawValue))

    /// `<td align="center">` and `</td>\n`: a table's padding cells are most of what it writes.
    private static let cellTagBytes = 28

    /// The most that cmark-gfm's HTML renderer writes for a node of this type besides its text, URL and title:
    /// `<td align="center">…</td>` and `<li><input type="checkbox" checked="" disabled="" /> …</li>`, for instance.
    private static func tagBytes(_ type: cmark_node_type) -> Int {
        switch type {
        case CMARK_NODE_TEXT: 0
        case CMARK_NODE_SOFTBREAK: 1
        case CMARK_NODE_PARAGRAPH, CMARK_NODE_THEMATIC_BREAK, CMARK_NODE_LINEBREAK, CMARK_NODE_EMPH: 12
        case CMARK_NODE_ITEM: 80
        default: 64
        }
    }
}

/// What a byte becomes in HTML text (`&` → `&amp;`), and in an `href` (where other bytes become `%XX`).
private let htmlEscapes: [Int] = escapeTable(default: 1, ["&": 5, "<": 4, ">": 4, "\"": 6, "'": 6])
private let hrefEscapes: [Int] = escapeTable(default: 3, ["&": 5, "\"": 6, "'": 6, "<": 3, ">": 3])

private func escapeTable(default other: Int, _ special: [Character: Int]) -> [Int] {
    (0..<256).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        if let special = special[Character(scalar)] { return special }
        // Letters, digits and the punctuation an href keeps as it is.
        if byte < 0x80 && (scalar.properties.isAlphabetic || (0x21...0x7E).contains(byte)) { return 1 }
        return other
    }
}

private func escapedBytes(_ text: UnsafePointer<CChar>?, _ escapes: [Int]) -> Int {
    guard var byte = text else { return 0 }
    var total = 0
    while byte.pointee != 0 {
        total += escapes[Int(UInt8(bitPattern: byte.pointee))]
        byte += 1
    }
    return total
}
