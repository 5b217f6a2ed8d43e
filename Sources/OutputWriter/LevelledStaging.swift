import Foundation
import SiteModel

/// `serve`'s staging folder brought level with the output folder, in the background after a build that was
/// not in place. An edit in place writes into the staging folder the files where it differs from the new
/// site; after a build from scratch that is every file the build wrote (78,000 links at 40,000 listings, ten
/// seconds), and after a first build with no site before it there is no staging folder at all, so the
/// first edit was a whole build. Levelled while the site is only being looked at, the staging folder holds
/// the output's own files (hard links), and the first edit writes only what it changes.
public enum LevelledStaging {
    public struct Levelled: Sendable {
        /// The staging record of the levelled folder: nothing differs.
        public let staged: BuildState.Staged
        /// The layout of the record saved with it, which the next record is spliced from.
        public let record: RecordLayout?
    }

    /// Whether the staging folder that `state` records differs from its output, or is not known at all.
    public static func isNeeded(for state: BuildState) -> Bool {
        state.staged.map { !$0.differing.isEmpty || !$0.missing.isEmpty } ?? true
    }

    /// Brings the staging folder of the output that `state` records level with it, then saves the record with
    /// the new staging record and confirms it. The marker goes first, so a levelling cut short (the server
    /// stopped) leaves a folder the next build does not trust. Nil when the folder could not be levelled,
    /// which may have changed part of it; a levelled folder whose record could not be saved has no `record`
    /// (and no marker: only this process knows it is level).
    public static func level(outputPath: String, statePath: String, state: BuildState) -> Levelled? {
        unlink(BuildState.stagingMarker(for: statePath))
        guard (try? OwnedFolders.checkReplaceable(output: outputPath)) != nil else { return nil }
        let output = StagedOutput(outputPath: outputPath)
        do throws(WriteError) {
            try bringLevel(output, staged: state.staged, outputs: state.outputs)
        } catch {
            return nil
        }
        var levelled = state
        levelled.staged = BuildState.Staged(id: UUID().uuidString, differing: [:], missing: [])
        let record = levelled.write(besides: statePath, keepingLayout: true)?.save()
        if record != nil { levelled.confirmStaged(statePath: statePath) }
        return Levelled(staged: levelled.staged!, record: record)
    }

    /// Links into the staging folder the output's files where `staged` says it differs, and removes those the
    /// output does not have; with no staging record, makes the folder anew with a link to every output file.
    private static func bringLevel(_ output: StagedOutput, staged: BuildState.Staged?, outputs: OutputTable) throws(WriteError) {
        let paths: [String], held: [String: FileDigest], folder: StagingFolder
        if let staged, let found = try StagingFolder(output.stagingPath) {
            paths = Array(staged.differing.keys) + staged.missing
            held = staged.differing
            folder = found
        } else {
            StagedOutput.removeStaging(output.stagingPath)
            folder = try StagedOutput.makeStagingFolder(output.stagingPath)
            paths = Array(outputs.keys)
            held = [:]
        }
        let asWritten = try AsWritten(folder: folder.files)
        let wanted = Set(paths.filter { outputs[$0] != nil })
        try output.update(
            folder, from: WrittenDigests(held), asWritten: asWritten, source: try HeldFolder(opening: output.outputPath), wanted: wanted.contains,
            changed: wanted.map { OutputFile(path: $0, contents: .previous) })
        // Level, it is an earlier output again, which no update is bringing forward; one made anew loses the
        // staging marker too, so that a name put at its top is refused as in any earlier output.
        try folder.unmark()
        // The record saved next describes what is at the name.
        try folder.checkAtItsName()
    }
}
