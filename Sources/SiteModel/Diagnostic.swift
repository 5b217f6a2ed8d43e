/// A place in a source file, 1-based, as editors count lines and columns.
public struct SourceLocation: Sendable, Hashable, Comparable {
    /// Path relative to the site root, e.g. `content/cleaners/ana.yaml`.
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int = 1, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

/// One problem found in the input, printed as `path:line:col: error: message`.
public struct Diagnostic: Error, Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    public var severity: Severity
    /// Nil only for problems no input file is to blame for, such as an output folder that cannot be written.
    public var location: SourceLocation?
    public var message: String

    public init(_ severity: Severity = .error, at location: SourceLocation?, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    public static func error(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.error, at: location, message)
    }

    public static func warning(at location: SourceLocation, _ message: String) -> Diagnostic {
        Diagnostic(.warning, at: location, message)
    }

    /// An error not tied to any input file.
    public static func error(_ message: String) -> Diagnostic {
        Diagnostic(.error, at: nil, message)
    }

    /// One line. Control characters quoted from the input (a NUL, a newline) or in a file's name (an ESC, a
    /// carriage return) are shown as their Unicode pictures (␀, ␊), so they neither vanish, break the line nor
    /// forge one in a terminal or CI log.
    public var description: String {
        let shown = ControlCharacters.shown(message)
        guard let location else { return "\(severity.rawValue): \(shown)" }
        return "\(ControlCharacters.shown(location.file)):\(location.line):\(location.column): \(severity.rawValue): \(shown)"
    }

    public static func < (a: Diagnostic, b: Diagnostic) -> Bool {
        switch (a.location, b.location) {
        case (let x?, let y?): return (x, a.message) < (y, b.message)
        case (nil, nil): return a.message < b.message
        case (nil, _): return true
        case (_, nil): return false
        }
    }
}

/// Every problem of one run, reported together, sorted by file and line.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sorted()
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
