import SiteModel
import Support
import Synchronization

/// What a render leaves for the next one in place, when the caller keeps the site from build to build
/// (`serve`): the search index's corpus, the item spans of the documents that hold one item per listing,
/// the synced files, the sync tree's buckets and where the manifest's entries lie.
public struct KeptRender: Sendable {
    var search: SearchCorpus?
    /// By the document's path.
    var spans: [String: ItemSpans] = [:]
    /// The kind whose listings each of those documents holds, by path.
    var kinds: [String: String] = [:]
    /// The digests of the documents spliced in place (or made ready for the first edit, `PrimedRender`), by
    /// path, which the next splice resumes.
    var digests: [String: ResumableDigest] = [:]
    /// These two are set by `SiteRenderer.derivedFiles`, which the writer calls after the render: the files
    /// apps sync, the API root among them, and every file the manifest lists.
    var synced: [String: FileDigest]?
    var manifest: Manifest.Layout?
    /// The sync tree's buckets, also set by `SiteRenderer.derivedFiles`.
    var syncTree: SyncTree?

    /// The documents the next edit in place splices from the last ones' bytes: those whose items' spans it
    /// keeps, and the manifest once its layout is kept.
    public var splicedDocuments: [String] {
        Array(spans.keys) + (manifest == nil ? [] : [Manifest.path])
    }

    /// Whether an edit in place of listings of `kinds` splices the file at `path`: not when it is a document
    /// of another kind's listings.
    public func mayBeSpliced(_ path: String, byAnEditOf kinds: Set<String>) -> Bool {
        self.kinds[path].map(kinds.contains) ?? true
    }

    /// Whether it holds where the manifest's entries lie: a whole build makes the manifest as it writes it,
    /// and leaves that to the first edit in place.
    public var holdsManifestLayout: Bool { manifest != nil }

    /// The digest of a document whose spans it keeps, as its bytes are now, for the next splice to resume: as
    /// if an edit in place had just made it (`Noticeboard.PrimedRender`).
    public mutating func keep(_ digest: ResumableDigest, at path: String) {
        guard spans[path] != nil else { return }
        digests[path] = digest
    }
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

    /// The spans of a document of `kind`'s listings, and its digest when it was spliced in place (a document
    /// made anew has none).
    func keep(_ spans: ItemSpans, digest: ResumableDigest? = nil, for path: String, kind: String) {
        made.withLock { kept in
            kept.spans[path] = spans
            kept.kinds[path] = kind
            kept.digests[path] = digest
        }
    }

    /// Whether it keeps the spans of the document at `path`, once that is made.
    public func keepsItems(at path: String) -> Bool {
        made.withLock { $0.spans[path] != nil }
    }

    public var kept: KeptRender {
        made.withLock { $0 }
    }
}
