import CatalogueIndex
import OutputWriter
import Rendering
import SiteModel
import Support
import Synchronization

extension Noticeboard {
    /// What an edit in place starts from beyond the site: what the last render kept, and the bytes of the
    /// documents it splices, by path (`BuiltSite.writtenFiles`), so that it does not read them back. Made in
    /// the background when a build leaves less than an edit in place would (`LiveSite`).
    struct PrimedRender {
        var kept: KeptRender
        var documents: [String: [UInt8]]
    }

    /// What the next edit in place after `built` starts from, made as that edit would otherwise make it: after a
    /// build that rendered nothing, the render it keeps (`primedRender`); after a whole build, the documents it
    /// splices, read back, and the manifest's layout (`primedFirstEdit`). Nil when there is nothing to make (an
    /// edit in place left both), when what was made is not what the record holds, and, before anything is
    /// made, when the next build is a whole one anyway: without a staging folder to write into, or when another
    /// build wrote the output since its manifest was `manifestStamp` (at 10× L, 12.9 s of rendering or 1.5 GB
    /// read back, for nothing).
    static func primed(for built: BuiltSite, outputPath: String, manifestStamp: FileStamp?) -> PrimedRender? {
        guard built.state.staged != nil, FileStamp(ofManifestIn: outputPath) == manifestStamp else { return nil }
        if built.kept == nil { return primedRender(for: built) }
        return built.writtenFiles.isEmpty ? primedFirstEdit(for: built, outputPath: outputPath) : nil
    }

    /// For a kept site that rendered nothing (`serve` started on an output that was already up to date), as a
    /// render that kept it would have left it. Without it the first edit makes the search index, the
    /// documents with an item per listing and the sync documents anew: at 10× L, 12.9 s of its 19.5 s. Made
    /// from the catalogue and the build record as they stand; nothing is written. Kept only when every file
    /// it makes is, byte for byte, the one the record holds: the next edit takes it as describing the output.
    /// Its documents are about 1.5 GB at 430,000 listings (an edit lets go of those of kinds it leaves alone);
    /// reading back and digesting one kind's and the manifest, 650 MB, took 0.7 s of that first edit. The
    /// tables of referrers are made too.
    static func primedRender(for built: BuiltSite) -> PrimedRender? {
        built.catalogue.prepareReferrers()
        let state = built.state
        let renderer = recordedRenderer(built)
        // Every kind counts as touched, with no listing edited: what an edit in place would make of any kind.
        let everyKind = EditedPositions(
            slugs: Dictionary(uniqueKeysWithValues: built.catalogue.kinds.map { ($0.schema.name, Set<String>()) }), in: built.catalogue)
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
        guard !differs.load(ordering: .relaxed), let manifest = derivedAsRecorded(renderer, state, kept: &kept), var kept else { return nil }
        let made = documents.withLock { $0 }
        for (path, document) in made { kept.keep(document.digest, at: path) }
        var bytes = made.mapValues(\.bytes)
        bytes[Manifest.path] = manifest
        return PrimedRender(kept: kept, documents: bytes)
    }

    /// After a whole build that kept its render (`serve`'s), what the first edit in place would otherwise make
    /// on its own time (at 10× L that edit took 4.45 s, and 1.55 s with this): the documents it splices, read
    /// back from `outputPath` with the digests their splices resume; the manifest, made as an edit makes it to
    /// know where its entries lie; the tables of referrers. Nil when a file is not the one the record holds.
    static func primedFirstEdit(for built: BuiltSite, outputPath: String) -> PrimedRender? {
        guard var kept = built.kept, !kept.holdsManifestLayout else { return nil }
        built.catalogue.prepareReferrers()
        let recorded = built.state.outputs.digests
        let read = kept.splicedDocuments.parallelMap { path in
            recorded[path].flatMap { OutputBook.recordedBytes(at: path, outputPath: outputPath, recorded: $0) }.map { (path, $0) }
        }
        var documents: [String: [UInt8]] = [:]
        for document in read {
            guard let (path, made) = document else { return nil }
            kept.keep(made.digest, at: path)
            documents[path] = made.bytes
        }
        var keeping: KeptRender? = kept
        guard let manifest = derivedAsRecorded(recordedRenderer(built), built.state, kept: &keeping), let keeping else { return nil }
        documents[Manifest.path] = manifest
        return PrimedRender(kept: keeping, documents: documents)
    }

    /// A renderer of the kept site as its record stands, whose listings keep their recorded versions.
    private static func recordedRenderer(_ built: BuiltSite) -> SiteRenderer {
        let state = built.state, catalogue = built.catalogue
        return SiteRenderer(
            catalogue: catalogue, templates: built.site.templates,
            versions: ListingVersions(catalogue: catalogue, previous: state.versions, edited: EditedPositions()), lastSync: state.sync,
            lastFiles: state.outputs.digests)
    }

    /// The files derived from every other file's digest, made as an edit in place makes them, which leaves
    /// with `kept` the manifest's layout (and the sync documents' state): the manifest's bytes when every
    /// derived file is the one the record holds, else nil.
    private static func derivedAsRecorded(_ renderer: SiteRenderer, _ state: BuildState, kept: inout KeptRender?) -> [UInt8]? {
        let derived = renderer.derivedFiles(digests: state.outputs.digests.excluding(SyncDocuments.isDerived), changed: [], kept: &kept)
        let areRecorded = derived.files.allSatisfy { file in
            (file.digest ?? file.contents.inMemory.map(Manifest.digest)).map { state.outputs[file.path]?.digest == $0 } ?? true
        }
        return areRecorded ? derived.files.first { $0.path == Manifest.path }?.contents.inMemory : nil
    }
}
