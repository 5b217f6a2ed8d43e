import Foundation

/// Decides whether CSS in an SVG (a `<style>`, a `style=` or a presentation attribute such as `fill`) can reach
/// outside the file, on the text as a CSS tokenizer reads it: escapes resolved (`u\72l(` is `url(`, CSS Syntax
/// Level 3 §4.3.7) and letters folded to lowercase. The check refuses what it cannot prove harmless: every
/// function that can fetch, but `url(#id)`; every at-rule outside a short list that fetches nothing. Comments
/// are left in: one can only split a name or a function from its `(`, which then fetches nothing.
enum CSSReferences {
    /// Functions that can load an image, a font or a worklet, or show another element.
    private static let fetchingFunctions: Set<String> = [
        "url", "src", "image", "image-set", "-webkit-image-set", "cross-fade", "-webkit-cross-fade", "element", "-moz-element", "paint",
    ]
    /// At-rules that fetch nothing: `@import`, `@font-face` (its `src`) and any other are refused.
    private static let harmlessAtRules: Set<String> = [
        "media", "supports", "keyframes", "-webkit-keyframes", "-moz-keyframes", "layer", "container", "charset",
    ]

    /// The first construct of `css` that may reach outside the file, as messages name it. At-rules are looked
    /// for only in style sheets (`<style>`): an attribute holds one value or declarations, which have none.
    static func outsideReference(in css: String, styleSheet: Bool) -> String? {
        let text = Array(unescaped(css).lowercased().unicodeScalars)
        for (index, scalar) in text.enumerated() {
            if scalar == "(", let name = identifier(endingBefore: index, in: text), fetchingFunctions.contains(name) {
                guard name == "url" else { return "a CSS \(name)() function" }
                let argument = String(String.UnicodeScalarView(text[(index + 1)...].prefix { $0 != ")" }))
                let target = argument.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\"'")))
                if !target.hasPrefix("#") { return "a CSS url(\(target.prefix(60))) outside the file" }
            }
            if styleSheet, scalar == "@" {
                let name = String(String.UnicodeScalarView(text[(index + 1)...].prefix(while: isNameScalar)))
                if !harmlessAtRules.contains(name) { return "a CSS @\(name) rule" }
            }
        }
        return nil
    }

    /// The name of the function whose `(` is at `index`: the letters, digits, '-' and '_' right before it.
    private static func identifier(endingBefore index: Int, in text: [Unicode.Scalar]) -> String? {
        var start = index
        while start > 0, isNameScalar(text[start - 1]) { start -= 1 }
        return start < index ? String(String.UnicodeScalarView(text[start..<index])) : nil
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar.value >= 0x80
    }

    /// `css` with every escape replaced by what it stands for: `\` and up to six hex digits (and one whitespace
    /// after them) by that code point (U+FFFD for zero, a surrogate or beyond U+10FFFF), `\` and a newline by
    /// nothing (a string's line continuation), `\` and any other character by that character.
    static func unescaped(_ css: String) -> String {
        let scalars = Array(css.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard index < scalars.count else { break }
            var hex = ""
            while hex.count < 6, index < scalars.count, scalars[index].properties.isASCIIHexDigit {
                hex.unicodeScalars.append(scalars[index])
                index += 1
            }
            if hex.isEmpty {
                if !"\n\r\u{C}".unicodeScalars.contains(scalars[index]) { result.append(scalars[index]) }
                index += 1
                continue
            }
            let value = UInt32(hex, radix: 16)!
            result.append(value == 0 ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}")
            // One whitespace after a hex escape belongs to it; "\r\n" counts as one.
            if index < scalars.count, " \t\n\r\u{C}".unicodeScalars.contains(scalars[index]) {
                index += scalars[index] == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" ? 2 : 1
            }
        }
        return String(result)
    }
}
