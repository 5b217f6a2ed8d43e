import LocatedYAML
import SiteModel

/// The diagnostics found in one file while it is being checked. At most `listedLimit` are kept; the rest are
/// counted and reported in one line, and their messages never made. Aliases can repeat one bad mapping
/// thousands of times: an 11 KB file once gave half a million errors and took minutes to report.
struct Problems {
    static let listedLimit = 100

    let file: String
    private var found: [Diagnostic] = []
    private var unlisted = 0
    private var unlistedErrors = false
    private var firstUnlisted: SourceLocation?

    /// Sorted by line and column, as they are reported.
    var list: [Diagnostic] {
        guard let firstUnlisted else { return found.sorted() }
        let more = "and \(unlisted) more problem\(unlisted == 1 ? "" : "s") in this file, not listed; fix the ones listed and check again"
        return found.sorted() + [Diagnostic(unlistedErrors ? .error : .warning, at: firstUnlisted, more)]
    }

    init(file: String) {
        self.file = file
    }

    mutating func error(_ node: YAMLNode, _ message: @autoclosure () -> String) {
        add(.error, node, message)
    }

    mutating func warning(_ node: YAMLNode, _ message: @autoclosure () -> String) {
        add(.warning, node, message)
    }

    mutating func error(at location: SourceLocation, _ message: @autoclosure () -> String) {
        add(.error, location, message)
    }

    private mutating func add(_ severity: Diagnostic.Severity, _ node: YAMLNode, _ message: () -> String) {
        add(severity, SourceLocation(file: file, line: node.line, column: node.column), message)
    }

    private mutating func add(_ severity: Diagnostic.Severity, _ location: SourceLocation, _ message: () -> String) {
        guard found.count < Self.listedLimit else {
            if firstUnlisted == nil { firstUnlisted = location }
            unlisted += 1
            unlistedErrors = unlistedErrors || severity == .error
            return
        }
        found.append(Diagnostic(severity, at: location, message()))
    }

    var hasErrors: Bool { unlistedErrors || found.hasErrors }
}

/// A name quoted from the input in a message, cut to 40 characters as `YAMLNode.summary` cuts values.
func shortened(_ name: String) -> String {
    name.count > 40 ? String(name.prefix(40)) + "…" : name
}

/// "did you mean …?" for a misspelt name, when one known name is close enough.
func suggestion(for name: String, among known: [String]) -> String {
    let lowered = name.lowercased()
    let limit = max(2, min(3, name.count / 3))
    // Names whose lengths differ by more than the limit are further apart than it: skipping them keeps a long
    // name (fuzzing found one of a megabyte) from costing its length times every known name's.
    let scored = known.filter { abs($0.count - name.count) <= limit }.map { ($0, editDistance(lowered, $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return "" }
    return "; did you mean '\(best.0)'?"
}

private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// Lists names for messages: 'a', 'b' or 'c'.
func quotedList(_ names: [String]) -> String {
    names.map { "'\($0)'" }.joined(separator: ", ")
}
