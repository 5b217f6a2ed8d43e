import Foundation
import Testing

/// `noticeboard schema`: JSON Schemas of the listing files, for editors.
@Suite struct EditorSchemasTests {
    @Test func editorSchemasAcceptEveryExampleListing() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let written = try TestSupport.runCLI(["schema", "--output", folder], in: TestSupport.repository)
        #expect(written.status == 0, "\(written.stderr)")
        let result = try TestSupport.run("python3", ["scripts/validate-listings.py", "content", folder])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("validate-listings: ") && result.stdout.contains(", 0 problems"))
        // The schemas are not lax: a listing with a wrong type or an unknown field fails them.
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("name: X\nhourly_rate: cheap\ncounty: Cork\nlanguages: [English]\njoined: 2026-01-01\nbio: Hi\nphone: \"+353 1 555 0000\"\nemail: x@example.net\ncolour: red\nslug: x-export\n", to: site + "/content/cleaners/x.yaml")
        let failing = try TestSupport.run("python3", ["scripts/validate-listings.py", site + "/content", folder])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("x.yaml: hourly_rate: 'cheap' is not of type 'number'"))
        #expect(failing.stdout.contains("Additional properties are not allowed ('colour' was unexpected)"))
        // A `slug:` line is the listing's web address, not an unknown field.
        #expect(!failing.stdout.contains("'slug' was unexpected"))
    }

    /// A file where the folder should be is an error naming it, as `build`'s are, not Foundation's.
    @Test(arguments: [["schema", "--output", "a-file"], ["codegen", "swift", "--output", "a-file"]])
    func aFileInTheWayOfTheFolderIsAPlainError(arguments: [String]) throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("mine", to: site + "/a-file")
        let result = try TestSupport.runCLI(arguments, in: site)
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot write to a-file/: a-file exists and is not a folder\n1 error; nothing was written.\n")
        #expect(TestSupport.read(site + "/a-file") == "mine")
    }
}
