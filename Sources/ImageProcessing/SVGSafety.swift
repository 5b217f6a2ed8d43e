import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// SVG is code: opened on its own, a browser runs its scripts and follows its links. Noticeboard publishes an
/// SVG as it is only when it holds none of these, and refuses it otherwise (it does not try to clean it):
/// - `<script>`, and elements that embed other documents or run code: `foreignObject`, `iframe`, `embed`,
///   `object`, `handler`, `listener`;
/// - elements of HTML or MathML, whatever their prefix: a browser acts on them inside an SVG as in their own
///   documents (an HTML `<meta http-equiv="refresh">` sends the visitor elsewhere, an `<img src>` fetches);
/// - event handler attributes (`onload`, `onclick`, any `on…`), and animations (`set`, `animate…`) of them
///   or of `href`;
/// - references to anything outside the file: an `href` (or `xlink:href`) that is not `#id`, data: URLs
///   included (they can carry scripts, or a photo with its metadata), `<?xml-stylesheet?>`, and in CSS
///   (`CSSReferences`, escapes resolved) a `url(…)` that is not `#id`, any other function that can fetch
///   (`image-set()`, `src()`…) and any at-rule but a few harmless ones (`@import`, `@font-face`…);
/// - a document type declaration (its entities can read other files or expand without bound).
enum SVGSafety {
    private static let forbiddenElements: Set<String> = ["script", "foreignobject", "iframe", "embed", "object", "handler", "listener"]
    private static let animations: Set<String> = ["set", "animate", "animatemotion", "animatetransform", "animatecolor"]
    /// The namespaces of the other markup languages browsers render, with how the refusal names their elements.
    private static let renderedNamespaces = ["http://www.w3.org/1999/xhtml": "an HTML", "http://www.w3.org/1998/Math/MathML": "a MathML"]

    /// A safe, well-formed SVG document's size; otherwise the first thing the rule refuses, or a parse error.
    static func check(_ bytes: [UInt8]) -> Result<SourceImage, ImageProblem> {
        if bytes.starts(with: [0x1F, 0x8B]) { return .failure(.compressedSVG) }
        if let line = line(of: "<!DOCTYPE", in: bytes) ?? line(of: "<!ENTITY", in: bytes) {
            return .failure(.unsafeSVG("a document type declaration", line: line))
        }
        let parser = XMLParser(data: Data(bytes))
        let inspector = Inspector()
        parser.delegate = inspector
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let found = inspector.found { return .failure(found) }
        if let (reason, line) = inspector.parseError ?? (parsed ? nil : ("the XML parser stopped", parser.lineNumber)) {
            return .failure(.notWellFormedSVG(reason, line: line))
        }
        guard inspector.rootElement == "svg" else { return .failure(.notWellFormedSVG("the root element is not <svg>", line: 1)) }
        let size = SVGSize.of(root: inspector.rootAttributes)
        return .success(SourceImage(format: .svg, width: size.width, height: size.height))
    }

    /// 1-based line of the first occurrence of `text`, if any.
    private static func line(of text: String, in bytes: [UInt8]) -> Int? {
        guard let range = bytes.firstRange(of: Array(text.utf8)) else { return nil }
        return bytes[..<range.lowerBound].count { $0 == UInt8(ascii: "\n") } + 1
    }

    /// Stops the parse at the first refused construct and keeps it.
    private final class Inspector: NSObject, XMLParserDelegate {
        var found: ImageProblem?
        var rootElement: String?
        var rootAttributes: [String: String] = [:]
        var parseError: (String, Int)?
        /// The text of the `<style>` element being read and its line, checked whole at its end (the parser
        /// hands the text over in pieces).
        private var style: (text: String, line: Int)?

        private func refuse(_ what: String, _ parser: XMLParser, line: Int? = nil) {
            guard found == nil else { return }
            found = .unsafeSVG(what, line: line ?? parser.lineNumber)
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            // On Linux, XMLParser's errors carry only libxml2's error number, and parse() may still return true.
            if self.parseError == nil, found == nil {
                self.parseError = ("the XML is malformed (libxml2 error \((parseError as NSError).code))", parser.lineNumber)
            }
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = localName(elementName).lowercased()
            if rootElement == nil {
                rootElement = element
                rootAttributes = attributes
            }
            if SVGSafety.forbiddenElements.contains(element) { return refuse("a <\(localName(elementName))> element", parser) }
            if let language = namespaceURI.flatMap({ SVGSafety.renderedNamespaces[$0] }) {
                return refuse("\(language) element <\(qualifiedName ?? elementName)>", parser)
            }
            if element == "style" { style = ("", parser.lineNumber) }
            for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
                let attribute = localName(name).lowercased()
                if attribute.hasPrefix("on") { return refuse("an event handler attribute \(name)", parser) }
                if attribute == "href", !value.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                    return refuse("a link to \(value.prefix(60)) in \(name)", parser)
                }
                if SVGSafety.animations.contains(element), attribute == "attributename" {
                    let target = localName(value).lowercased()
                    if target == "href" || target.hasPrefix("on") { return refuse("an animation of \(value)", parser) }
                }
                // Every attribute is read as CSS: presentation attributes (fill, filter, cursor…) are CSS values.
                if let css = CSSReferences.outsideReference(in: value, styleSheet: false) { return refuse(css, parser) }
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard localName(elementName).lowercased() == "style", let (text, line) = style else { return }
            style = nil
            if let css = CSSReferences.outsideReference(in: text, styleSheet: true) { refuse(css, parser, line: line) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            style?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            style?.text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            if target.lowercased() == "xml-stylesheet" { refuse("an <?xml-stylesheet?> instruction", parser) }
        }

        /// `xlink:href` → `href`; names without a prefix stay as they are.
        private func localName(_ name: String) -> String {
            name.split(separator: ":").last.map(String.init) ?? name
        }
    }
}
