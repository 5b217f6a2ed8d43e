/// A generated listing as its file will say it: fields in order, values as YAML will write them.
public struct SyntheticListing: Sendable {
    public var kind: String
    public var slug: String
    public var fields: [(name: String, value: SyntheticValue)]

    public subscript(name: String) -> SyntheticValue? {
        fields.first { $0.name == name }?.value
    }
}

public indirect enum SyntheticValue: Sendable {
    /// Text, always written quoted (or as a block when it spans lines), so YAML never reads it as a number.
    case text(String)
    /// A number, date or boolean, written bare.
    case bare(String)
    case list([SyntheticValue])
    case object([(name: String, value: SyntheticValue)])

    public var text: String? {
        switch self {
        case .text(let text), .bare(let text): return text
        default: return nil
        }
    }
}
