@testable import Rendering
import Support
import Testing

/// `plainText(ofHTML:)` reads bytes; the reference reads scalars and Characters. Both must give the same text.
@Suite struct PlainTextTests {
    static let cases = [
        "<p>Hello <em>world</em>,\n<strong>again</strong></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>",
        "<p>a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &amp;amp; &copy; &</p>",
        "<p>Łódź\u{00A0}é\u{301}\u{2003}x\u{3000}y\u{85}z \u{1F600} 日本語</p>",
        "<h2>Title</h2><p>text</p><br/><img src=\"x.png\" alt=\"a > b\">after",
        "<P>upper</P><A HREF=x>link</A><é>odd</é><aé>odd2</aé><a\u{301}>combined</a\u{301}>",
        "  \n\t leading and trailing \r\n ",
        "unclosed <p tag and more",
        "<//b>slashes</ /b><h1-x>dash</h1-x><1>digit</1>",
        // Where raw HTML was left out, a comment that does not part words.
        "<p>5 &gt; 3 &amp; <!-- raw HTML omitted -->Ctrl<!-- raw HTML omitted -->, C#</p>",
        "",
    ]

    @Test(arguments: cases) func matchesTheReference(html: String) {
        #expect(plainText(ofHTML: html) == referencePlainText(ofHTML: html))
    }

    /// Generated strings from the pieces that matter: tags inline and not, entities, whitespace of every width.
    @Test func generatedTextMatchesTheReference() {
        let pieces = ["<p>", "</p>", "<em>", "</em>", "<a href=\"u\">", "</a>", "<br />", "<!-- c -->", "<li>", "&amp;", "&lt;", "&#39;", "&x;", " ",
                      "\n", "\t", "\u{00A0}", "\u{2009}", "word", "é", "\u{301}", "日本", "<", ">", "&", "<aé>", "<SPAN>", "/"]
        var random = SplitMix64(seed: 11)
        var mismatches: [String] = []
        for _ in 0..<2000 {
            var html = ""
            for _ in 0..<12 {
                html += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            if plainText(ofHTML: html) != referencePlainText(ofHTML: html) { mismatches.append(html) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }
}
