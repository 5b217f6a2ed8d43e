/// One file of the built site, named relative to the output folder (`cleaners/ana/index.html`).
public struct OutputFile: Sendable {
    public enum Contents: Sendable {
        case bytes([UInt8])
        /// A file copied as it is from an absolute source path (theme assets, media).
        case copy(from: String)
    }

    public var path: String
    public var contents: Contents

    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }

    public init(path: String, text: String) {
        self.init(path: path, contents: .bytes(Array(text.utf8)))
    }
}
