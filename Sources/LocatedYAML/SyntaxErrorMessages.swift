import SiteModel

/// What libyaml reported about a file it could not parse, in its own words.
struct LibYAMLError {
    /// libyaml's problem text, e.g. "did not find expected ',' or ']'".
    var problem: String
    /// What libyaml was reading, e.g. "while parsing a flow sequence", and where that started.
    var context: String?
    var contextLine: Int
    var contextColumn: Int
    /// The byte at the place of the error, when the file has one there.
    var byte: UInt8?
}

private let noTags = "listing files do not use YAML tags (words that start with '!'); remove it, or put a value that starts with '!' in quotes"

/// libyaml problems whose explanation needs nothing from the file.
private let fixedExplanations: [String: String] = [
    "mapping values are not allowed in this context":
        "unexpected ':'; put a value that contains ': ' in quotes, or check the indentation of this line",
    "found unknown escape character":
        "unknown escape after '\\' in double-quoted text; write '\\\\' for a backslash, or use single quotes",
    "did not find expected hexdecimal number":
        "'\\x', '\\u' or '\\U' in double-quoted text must be followed by hexadecimal digits; write '\\\\' for a backslash, or use single quotes",
    "did not find expected key":
        "expected a new 'field: value' line here; check this line's indentation, and put a value that holds quotes, brackets or ': ' inside quotes",
    "block sequence entries are not allowed in this context":
        "a '- ' list item cannot start here; start the list on the next line, indented, or write it as [a, b]",
    "did not find expected node content":
        "a value is missing here",
    "found undefined tag handle": noTags,
    "did not find the expected '>'": noTags,
    "found incompatible YAML document":
        "the %YAML line asks for a YAML version other than 1.x; remove it",
    "found duplicate %YAML directive":
        "the %YAML line is repeated; remove one",
    "found unknown directive name":
        "a line starting with '%' is a YAML directive, and only %YAML and %TAG exist; put text that starts with '%' in quotes",
    "found an indentation indicator equal to 0":
        "the indentation digit after '|' or '>' must be 1 to 9",
    "did not find expected <document start>":
        "unexpected text after the end of the file's content; check this line's indentation and brackets",
    "found unexpected document indicator":
        "a line starting with '---' or '...' cannot be inside quoted text; indent it",
]

/// libyaml's syntax errors in words for people who edit listing files by hand, saying what to change.
/// Problems not named here keep libyaml's text.
func plainSyntaxMessage(_ error: LibYAMLError) -> String {
    let problem = error.problem
    let context = error.context ?? ""
    let opened = "line \(error.contextLine), column \(error.contextColumn)"
    let message: String
    let atTab = problem == "found character that cannot start any token" && error.byte == 0x09
    switch problem {
    case _ where problem.hasPrefix("found a tab character") || atTab:
        message = "a tab cannot indent YAML; use spaces"
    case _ where fixedExplanations[problem] != nil:
        message = fixedExplanations[problem]!
    case "did not find expected ',' or ']'":
        message = "the list opened with '[' at \(opened) is not closed with ']', or a ',' is missing between its items"
    case "did not find expected ',' or '}'":
        message = "the mapping opened with '{' at \(opened) is not closed with '}', or a ',' is missing between its entries"
    case "could not find expected ':'":
        message = "the field name at \(opened) must be followed by ':' and its value"
    case "found unexpected end of stream" where context.hasSuffix("quoted scalar"):
        message = "the quoted text that starts at \(opened) is never closed; add the closing quote"
    case "found character that cannot start any token":
        let shown = error.byte.map { "'\(Character(Unicode.Scalar($0)))'" } ?? "this character"
        message = "a value cannot start with \(shown); put the value in quotes"
    case "did not find expected '-' indicator":
        message = "expected another '- ' item of the list that starts at \(opened); check this line's indentation"
    case "did not find expected alphabetic or numeric character" where context.hasSuffix("anchor") || context.hasSuffix("alias"):
        message = "'&' and '*' must be followed by a name; put a value that starts with '&' or '*' in quotes"
    case "did not find expected comment or line break" where context.hasSuffix("block scalar"):
        message = "after '|' or '>' only '-', '+' or a digit may follow on the same line; the text itself starts on the next line"
    default:
        message = problem + (error.context.map { " (\($0) at \(opened))" } ?? "")
    }
    return "YAML syntax error: " + message
}

/// libyaml's reader refuses control characters, and UTF-16 that does not decode (UTF-8 is checked before it).
func plainReaderMessage(problem: String, value: Int32, offset: Int) -> String {
    guard problem == "control characters are not allowed" else {
        return "the file cannot be read as text at byte offset \(offset) (\(problem)); save it with UTF-8 encoding"
    }
    let character = (0...0xFF).contains(value) ? TextPosition.hex(UInt8(value)) + " " : ""
    return "the file holds the control character \(character)at byte offset \(offset), which YAML does not allow; remove it"
}
