import CatalogueIndex
import OutputWriter
import Rendering
import SiteModel
import Support
import Synchronization

extension Noticeboard {
    /// What an edit in place starts from, made for a kept site that rendered nothing (`serve` started on an
    /// output that was already up to date), as a render that kept it would have left it.
    struct PrimedRender {
        var kept: KeptRender
        /// The documents spliced in place, by path, which the first edit splices from without reading them
        /// back (`BuiltSite.writtenFiles`), as it would after an edit: about 650 MB at 430,000 listings,
        /// against 0.7 s of reading back and digesting at that first edit.
        var documents: [String: [UInt8]]
    }

    /// Without it the first edit makes the search index, the documents with an item per listing and the sync
    /// documents anew: at 10× L, 12.9 s of its 19.5 s. Made from the catalogue and the build record as they
    /// stand; nothing is written. Kept only when every file it makes is, byte for byte, the one the record
    /// holds: the next edit takes it as describing the output.
    static func primedRender(for built: BuiltSite) -> PrimedRender? {
        let state = built.state, catalogue = built.catalogue
        let recorded = state.outputs.digests
        let renderer = SiteRenderer(
            catalogue: catalogue, templates: built.site.templates,
            versions: ListingVersions(catalogue: catalogue, previous: state.versions, edited: EditedPositions()), lastSync: state.sync,
            lastFiles: recorded)
        // Every kind counts as touched, with no listing edited: what an edit in place would make of any kind.
        let everyKind = EditedPositions(
            slugs: Dictionary(uniqueKeysWithValues: catalogue.kinds.map { ($0.schema.name, Set<String>()) }), in: catalogue)
        let keeper = RenderKeeper(), differs = Atomic<Bool>(false)
        let documents = Mutex<[String: (bytes: [UInt8], digest: ResumableDigest)]>([:])
        renderer.render(changes: everyKind, keeper: keeper, previousKey: { state.outputs[$0]?.renderKey }) { rendered in
            // A stream is made here, as the writer would make it, and the keeper learns its spans as it is.
            // A page left as it was has nothing to compare.
            for item in rendered where !differs.load(ordering: .relaxed) {
                guard let bytes = item.file.contents.inMemory else { continue }
                var digest = item.file.digest ?? Manifest.digest(bytes)
                if keeper.keepsItems(at: item.file.path) {
                    let resumable = ResumableDigest(of: bytes)
                    digest = FileDigest(size: resumable.size, sha256: resumable.digest)
                    documents.withLock { $0[item.file.path] = (bytes, resumable) }
                }
                if state.outputs[item.file.path]?.digest != digest { differs.store(true, ordering: .relaxed) }
            }
        }
        var kept: KeptRender? = keeper.kept
        // As an edit in place derives them: from every other file's digest.
        let derived = renderer.derivedFiles(digests: recorded.excluding(SyncDocuments.isDerived), changed: [], kept: &kept)
        let derivedAreRecorded = derived.files.allSatisfy { file in
            (file.digest ?? file.contents.inMemory.map(Manifest.digest)).map { state.outputs[file.path]?.digest == $0 } ?? true
        }
        guard !differs.load(ordering: .relaxed), derivedAreRecorded, var kept else { return nil }
        let made = documents.withLock { $0 }
        for (path, document) in made { kept.keep(document.digest, at: path) }
        return PrimedRender(kept: kept, documents: made.mapValues(\.bytes))
    }
}
