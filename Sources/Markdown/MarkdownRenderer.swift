import CCmarkGFM
import CCmarkThreads
import Foundation

/// Renders Markdown fields with cmark-gfm and GitHub's extensions (table, strikethrough, autolink, tagfilter,
/// tasklist). Raw HTML and `javascript:`-style URLs are dropped by cmark's safe mode unless the site opts in.
/// Validation has checked each field against the site's `MarkdownLimits` (`MarkdownCheck`) before this runs.
public struct MarkdownRenderer: Sendable {
    public static let extensionNames = CmarkSession.extensionNames

    private let options: Int32

    public init(allowRawHTML: Bool) {
        options = CMARK_OPT_DEFAULT | (allowRawHTML ? CMARK_OPT_UNSAFE : 0)
    }

    public func html(_ markdown: String) -> String {
        let options = options
        // Without a memory limit the parse is never given up.
        return try! CmarkSession.withDocument(markdown, options: options) { parsed in
            guard let rendered = cmark_render_html(parsed.document, options, cmark_parser_get_syntax_extensions(parsed.parser)) else {
                fatalError("cmark-gfm could not render HTML")
            }
            defer { nb_cmark_counting_free(rendered) }
            return String(cString: rendered)
        }
    }
}
