import LocatedYAML
import SiteModel
import Testing

@Suite struct LocatedYAMLTests {
    func parse(_ text: String) throws(Diagnostic) -> YAMLNode? {
        try parseYAML(Array(text.utf8), file: "x.yaml")
    }

    func error(_ text: String) -> Diagnostic? {
        do throws(Diagnostic) {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func nodesCarryOneBasedLinesAndColumns() throws {
        let root = try #require(try parse("name: Ana\nrates:\n  - 12.50\n  - 14\n"))
        guard case .mapping(let pairs) = root.content else { Issue.record("not a mapping"); return }
        #expect(pairs.map(\.name) == ["name", "rates"])
        #expect((pairs[0].value.line, pairs[0].value.column) == (1, 7))
        guard case .sequence(let items) = pairs[1].value.content else { Issue.record("not a list"); return }
        #expect((items[1].line, items[1].column) == (4, 5))
        #expect(items[1].scalar == "14")
    }

    @Test func quotedScalarsAreNotPlain() throws {
        let root = try #require(try parse("a: '12'\nb: 12\nc: |\n  text\n"))
        guard case .mapping(let pairs) = root.content else { return }
        guard case .scalar(_, let a) = pairs[0].value.content, case .scalar(_, let b) = pairs[1].value.content,
            case .scalar(let text, let c) = pairs[2].value.content
        else { Issue.record("not scalars"); return }
        #expect(a == .quoted && b == .plain && c == .block && text == "text\n")
    }

    @Test func emptyFilesAndCommentOnlyFilesHoldNoDocument() throws {
        #expect(try parse("") == nil)
        #expect(try parse("# only a comment\n") == nil)
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        let found = error("name: Ana\nbio: [unclosed\nrate: 3\n")
        #expect(found?.location == SourceLocation(file: "x.yaml", line: 3, column: 5))
        #expect(found?.message == "YAML syntax error: the list opened with '[' at line 2, column 6 is not closed with ']', or a ',' is missing between its items")
    }

    @Test func tabIndentationGetsItsOwnMessage() {
        let found = error("name: Ana\nlist:\n\t- a\n")
        #expect(found?.location?.line == 3)
        #expect(found?.message.contains("a tab cannot indent YAML") == true)
    }

    @Test func duplicateKeysAreRefused() {
        let found = error("name: Ana\ncounty: Cork\nname: Bea\n")
        #expect(found?.location == SourceLocation(file: "x.yaml", line: 3, column: 1))
        #expect(found?.message == "duplicate key 'name' (first at line 1, column 1)")
    }

    @Test func aliasBombIsRefusedWithoutExpanding() {
        var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            lines.append("a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]")
        }
        var found: Diagnostic?
        let elapsed = ContinuousClock().measure { found = error(lines.joined(separator: "\n") + "\n") }
        #expect(found?.message.contains("alias bomb") == true)
        // Refused quickly, when the count passes the limit, not after expanding 10^9 values.
        #expect(elapsed < .seconds(1), "took \(elapsed)")
    }

    /// Few nodes, but each alias repeats 10 KB of text: 500 of them would be 5 MB on every page.
    @Test func aliasesOfLongTextAreRefused() {
        let text = "notes: &long \"" + String(repeating: "x", count: 10_000) + "\"\ntags: [" + Array(repeating: "*long", count: 500).joined(separator: ", ") + "]\n"
        #expect(error(text)?.message == "aliases (*name) repeat more than 4194304 bytes of text; refusing it unexpanded (a 'billion laughs' alias bomb?)")
        #expect(error("notes: &short \"x\"\ntags: [" + Array(repeating: "*short", count: 500).joined(separator: ", ") + "]\n") == nil)
    }

    @Test func invalidUTF8NamesTheByteOffset() {
        var bytes = Array("name: Ana\nbio: ok".utf8)
        bytes.append(0xFF)
        do throws(Diagnostic) {
            _ = try parseYAML(bytes, file: "x.yaml")
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.message == "the file is not UTF-8 text: byte 0xFF at byte offset 17 is not valid UTF-8; save the file with UTF-8 encoding")
            #expect(error.location?.line == 2)
        }
    }

    /// UTF-16 without a byte order mark, in either byte order, is named as such rather than as a zero byte;
    /// with its mark, libyaml reads it.
    @Test func utf16WithoutAByteOrderMarkIsNamed() throws {
        let text = "name: Ana\ncounty: Cork\n"
        let littleEndian = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [littleEndian, bigEndian] {
            do throws(Diagnostic) {
                _ = try parseYAML(bytes, file: "x.yaml")
                Issue.record("UTF-16 without a byte order mark was accepted")
            } catch {
                #expect(error.description == "x.yaml:1:1: error: the file looks like UTF-16 text without a byte order mark (a zero byte beside each character); save it with UTF-8 encoding")
            }
        }
        let marked = try #require(try parseYAML([0xFF, 0xFE] + littleEndian, file: "x.yaml"))
        guard case .mapping(let pairs) = marked.content else { Issue.record("not a mapping"); return }
        #expect(pairs.map { $0.value.scalar } == ["Ana", "Cork"])
    }

    @Test func controlCharactersAreNamedWithTheirOffset() {
        #expect(error("name: A\u{1}na\n")?.description == "x.yaml:1:8: error: the file holds the control character 0x01 at byte offset 7, which YAML does not allow; remove it")
    }

    /// A tab is found by line and column, which count characters, not bytes; the byte order mark is not counted.
    @Test func tabAfterMultiByteCharactersAndAByteOrderMarkIsStillATab() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("name: Zoë\nlist:\n\t- a\n".utf8)
        do throws(Diagnostic) {
            _ = try parseYAML(bytes, file: "x.yaml")
            Issue.record("tab indentation was accepted")
        } catch {
            #expect(error.description == "x.yaml:3:1: error: YAML syntax error: a tab cannot indent YAML; use spaces")
        }
    }

    @Test func byteOrderMarkAndCRLFAreAccepted() throws {
        let root = try #require(try parseYAML([0xEF, 0xBB, 0xBF] + Array("name: Ana\r\ncounty: Cork\r\n".utf8), file: "x.yaml"))
        guard case .mapping(let pairs) = root.content else { return }
        #expect(pairs.map { $0.value.scalar } == ["Ana", "Cork"])
        #expect(pairs[1].key.line == 2)
    }

    @Test func secondDocumentIsRefused() {
        #expect(error("a: 1\n---\nb: 2\n")?.location?.line == 2)
    }
}
