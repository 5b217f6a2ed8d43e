import Rendering
import SiteLoader
import SiteModel
import Support

/// Where the keyed lines of a written build record lie: its input lines sorted by path, then its output
/// lines by path, then its listing lines by key, between a head (settings, summaries, warnings) and a tail
/// (sync history, staging). `serve` keeps it, so that the record of its next edit in place is the last
/// record's bytes with the head, the tail and only the keyed lines that changed made again: at 430,000
/// listings a record has 1.7 million lines (160 MB), and sorting and writing them all took three seconds of
/// a core after each edit, which the next edit waited for.
public struct RecordLayout: Sendable {
    let inputs: [String]
    let outputs: [String]
    let listings: [String]
    let spans: ItemSpans
    /// The record file once saved: the next record is spliced from its bytes while it has this stamp.
    var stamp: FileStamp?

    /// Whether these can be the keyed lines of `bytes`.
    func fit(_ bytes: [UInt8]) -> Bool {
        spans.count > 0 && spans.fit(bytes, count: inputs.count + outputs.count + listings.count)
    }
}

extension BuildState {
    /// Writes the record's lines into `output`; false when a path or message cannot be written in its
    /// tab-separated lines (what was written is then to be thrown away). `layout`, when given, receives
    /// where its keyed lines lie.
    func write(into output: inout some ByteSink, layout: ((RecordLayout) -> Void)? = nil) -> Bool {
        guard let head = headLines() else {
            return false
        }
        output.append(contentsOf: head)
        var spans = ItemSpans()
        func keyed(_ line: [UInt8]) {
            if layout == nil { output.append(contentsOf: line) } else { spans.append(line, to: &output) }
        }
        var inputPaths: [String] = [], inputsAreFields = true
        inputs.forEachSorted { path, stamp in
            guard inputsAreFields, Self.isField(path) else {
                inputsAreFields = false
                return
            }
            keyed(Self.inputLine(path, stamp.description))
            if layout != nil { inputPaths.append(String(decoding: path, as: UTF8.self)) }
        }
        guard inputsAreFields else { return false }
        // Written from the table's bytes: the record is written at the build's peak, where a string for each of
        // 780,000 paths would be 70 MB more at 430,000 listings. Only a kept layout (`serve`) holds them as strings.
        var outputPaths: [String] = [], outputsAreFields = true
        outputs.forEachSorted { path, output in
            guard outputsAreFields, Self.isField(path) else {
                outputsAreFields = false
                return
            }
            keyed(Self.outputLine(path, output))
            if layout != nil { outputPaths.append(String(decoding: path, as: UTF8.self)) }
        }
        guard outputsAreFields else { return false }
        var listingKeys: [String] = []
        versions.forEachKeyed { key, version in
            keyed(Self.listingLine(key, version))
            if layout != nil { listingKeys.append(key) }
        }
        output.append(contentsOf: tailLines())
        layout?(RecordLayout(inputs: inputPaths, outputs: outputPaths, listings: listingKeys, spans: spans))
        return true
    }

    /// The record's bytes, spliced from the `last` record's (the record of `state`, laid out as `layout`):
    /// the head and tail made again, and of the keyed lines only those of inputs, outputs and listings that
    /// came, went or changed. Nil when they cannot be: an input went (inputs are compared in the order
    /// scanned, which finds those that came or changed), or a new path cannot be a field.
    func spliced(from last: (state: BuildState, bytes: [UInt8], layout: RecordLayout)) -> (bytes: [UInt8], layout: RecordLayout)? {
        let layout = last.layout
        guard layout.fit(last.bytes), let head = headLines() else { return nil }
        let changedInputs = inputs.changedEntries(since: last.state.inputs)
        let stamps = Dictionary(changedInputs.map { ($0.path, $0.stamp) }, uniquingKeysWith: { $1 })
        let inputEdits = ItemSpans.edits(order: layout.inputs, at: stamps.keys.sorted()) { path in Self.inputLine(path.utf8, stamps[path]!) }
        let changedOutputs = Self.differingKeys(outputs, last.state.outputs)
        let outputEdits = ItemSpans.edits(order: layout.outputs, at: changedOutputs) { path in outputs[path].map { Self.outputLine(path.utf8, $0) } }
        let changedListings = VersionTable.differingKeys(versions, last.state.versions)
        let listingEdits = ItemSpans.edits(order: layout.listings, at: changedListings) { key in versions[key].map { Self.listingLine(key, $0) } }
        guard inputEdits.order.count == inputs.count, stamps.keys.allSatisfy(Self.isField), changedOutputs.allSatisfy(Self.isField) else {
            return nil
        }
        let edits = inputEdits.edits + outputEdits.edits.map { $0.shifted(by: layout.inputs.count) }
            + listingEdits.edits.map { $0.shifted(by: layout.inputs.count + layout.outputs.count) }
        let made = layout.spans.splicing(last.bytes, edits, separator: [], head: head, tail: tailLines())
        return (made.bytes, RecordLayout(inputs: inputEdits.order, outputs: outputEdits.order, listings: listingEdits.order, spans: made.spans))
    }

    /// The keys whose values differ between the two tables, or that only one has, sorted.
    private static func differingKeys(_ now: OutputTable, _ last: OutputTable) -> [String] {
        var keys: [String] = [], came = 0
        now.forEachEntry { path, output in
            let lastOutput = last[bytes: path]
            if lastOutput == nil { came += 1 }
            if lastOutput != output { keys.append(String(decoding: path, as: UTF8.self)) }
        }
        if last.count + came != now.count {
            last.forEachEntry { path, _ in
                if now[bytes: path] == nil { keys.append(String(decoding: path, as: UTF8.self)) }
            }
        }
        return keys.sorted()
    }

    private static func isField(_ text: String) -> Bool {
        isField(text.utf8)
    }

    private static func isField(_ bytes: some Sequence<UInt8>) -> Bool {
        !bytes.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }
    }

    /// Settings, summaries and warnings; nil when a warning cannot be written.
    private func headLines() -> [UInt8]? {
        guard warnings.allSatisfy({ $0.location.map { Self.isField($0.file) } == true && Self.isField($0.message) }) else { return nil }
        var lines: [UInt8] = []
        func line(_ fields: String...) { RecordText.append(fields, to: &lines) }
        line(Self.header)
        line(settings)
        line("listings", String(listings))
        let summary = self.summary
        line("outputs", String(summary.files), String(summary.pages), String(summary.bytes))
        line("inputs", String(inputs.count), inputs.digest.description)
        for warning in warnings {
            line("warning", warning.location!.file, String(warning.location!.line), String(warning.location!.column), warning.message)
        }
        return lines
    }

    /// The sync history and the staging folder's record.
    private func tailLines() -> [UInt8] {
        var lines: [UInt8] = []
        func line(_ fields: String...) { RecordText.append(fields, to: &lines) }
        line("build", String(sync.build), sync.date?.description ?? "-", sync.root)
        for list in sync.changes {
            line("change", String(list.build), list.date.description, list.from, list.to)
            for (path, digest) in list.files.sorted(by: { $0.key < $1.key }) {
                if let digest { line("changed", String(digest.size), digest.sha256.hex, path) } else { line("removed", path) }
            }
            for (name, digest) in list.buckets.sorted(by: { $0.key < $1.key }) { line("bucket", name, digest.hex) }
        }
        if let staged, staged.differing.keys.allSatisfy(Self.isField) {
            line("staging", staged.id)
            for (path, digest) in staged.differing.sorted(by: { $0.key < $1.key }) {
                line("staged", String(digest.size), digest.sha256.hex, path)
            }
            for path in staged.missing.sorted() { line("unstaged", path) }
        }
        return lines
    }

    private static func inputLine(_ path: some Collection<UInt8>, _ stamp: String) -> [UInt8] {
        var line = Array("input\t".utf8)
        line += stamp.utf8
        line.append(UInt8(ascii: "\t"))
        line += path
        line.append(UInt8(ascii: "\n"))
        return line
    }

    private static func outputLine(_ path: some Collection<UInt8>, _ output: Output) -> [UInt8] {
        var line = Array("output\t".utf8)
        line += "\(output.digest.size)\t\(output.digest.sha256.hex)\t\(output.renderKey?.hex ?? "-")\t".utf8
        line += path
        line.append(UInt8(ascii: "\n"))
        return line
    }

    private static func listingLine(_ key: String, _ version: ListingVersions.Version) -> [UInt8] {
        RecordText.line(["listing", version.updated.description, version.sha256.hex, key])
    }
}
