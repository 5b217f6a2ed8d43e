/// Where a listing's own top-level values sit in its file, for the errors found after validation (a derived
/// sum past the limit, two facet values with one URL, a slug taken twice). Every listing holds one until it
/// is rendered, so it holds little: a name with a line and column each, without the file's name, which the
/// listing has. As a `[String: SourceLocation]` it was 272 MB of a 400,000-listing build's peak.
public struct FieldLocations: Sendable, Hashable {
    private var entries: [Entry] = []

    private struct Entry: Sendable, Hashable {
        let field: String
        let line: UInt32
        let column: UInt32
    }

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    /// The field's value sits at `line` and `column`; a second call for one field replaces the first.
    public mutating func record(_ field: String, line: Int, column: Int) {
        let entry = Entry(field: field, line: UInt32(clamping: line), column: UInt32(clamping: column))
        if let index = entries.firstIndex(where: { $0.field == field }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    public func contains(_ field: String) -> Bool {
        entries.contains { $0.field == field }
    }

    /// Where the field's value sits in `file`, or nil when the file does not write it.
    public func location(of field: String, in file: String) -> SourceLocation? {
        entries.first { $0.field == field }.map { SourceLocation(file: file, line: Int($0.line), column: Int($0.column)) }
    }
}
