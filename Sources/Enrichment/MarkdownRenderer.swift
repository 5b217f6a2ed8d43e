import CCmarkGFM
import Foundation
import Synchronization

/// Renders Markdown fields with cmark-gfm and GitHub's extensions (table, strikethrough, autolink, tagfilter,
/// tasklist). Raw HTML and `javascript:`-style URLs are dropped by cmark's safe mode unless the site opts in.
public struct MarkdownRenderer: Sendable {
    public static let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    private let options: Int32

    public init(allowRawHTML: Bool) {
        options = CMARK_OPT_DEFAULT | (allowRawHTML ? CMARK_OPT_UNSAFE : 0)
    }

    /// The registered extensions, looked up once: registration is not thread-safe, lookups after it are.
    private nonisolated(unsafe) static let extensions: [OpaquePointer] = {
        cmark_gfm_core_extensions_ensure_registered()
        return extensionNames.map { name in
            guard let found = cmark_find_syntax_extension(name) else {
                fatalError("cmark-gfm extension '\(name)' is not registered; is libcmark-gfm-extensions installed?")
            }
            return found
        }
    }()

    /// cmark-gfm keeps the characters that start an extension's inlines (':' and 'w' for autolinks, '~' for
    /// strikethrough) in one global table, adds them while a parser runs and removes them when it is done, so
    /// two documents parsed at once can lose each other's autolinks. One document is rendered at a time.
    private static let cmarkLock = Mutex(())

    public func html(_ markdown: String) -> String {
        Self.cmarkLock.withLock { _ in render(markdown) }
    }

    private func render(_ markdown: String) -> String {
        guard let parser = cmark_parser_new(options) else { fatalError("cmark-gfm could not allocate a parser") }
        defer { cmark_parser_free(parser) }
        for syntax in Self.extensions { cmark_parser_attach_syntax_extension(parser, syntax) }
        var markdown = markdown
        markdown.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        guard let document = cmark_parser_finish(parser) else { fatalError("cmark-gfm could not finish parsing") }
        defer { cmark_node_free(document) }
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else {
            fatalError("cmark-gfm could not render HTML")
        }
        defer { free(rendered) }
        return String(cString: rendered)
    }
}
