import Synchronization

/// What a render leaves for the next one in place, when the caller keeps the site from build to build
/// (`serve`): the search index's corpus, and the item spans of the documents that hold one item per listing.
public struct KeptRender: Sendable {
    var search: SearchCorpus?
    /// By the document's path.
    var spans: [String: ItemSpans] = [:]
}

/// Where a render leaves what it keeps, from any thread. An in-place render starts from the last one's:
/// the documents of kinds it leaves alone keep their spans.
public final class RenderKeeper: Sendable {
    private let made: Mutex<KeptRender>

    public init(startingFrom last: KeptRender? = nil) {
        made = Mutex(last ?? KeptRender())
    }

    func keep(_ corpus: SearchCorpus) {
        made.withLock { $0.search = corpus }
    }

    func keep(_ spans: ItemSpans, for path: String) {
        made.withLock { $0.spans[path] = spans }
    }

    public var kept: KeptRender {
        made.withLock { $0 }
    }
}
