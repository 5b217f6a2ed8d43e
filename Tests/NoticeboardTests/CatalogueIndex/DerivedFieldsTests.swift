import Foundation
import Noticeboard
import SiteModel
import Testing

/// The example site's chore boards, whose urgencies, priorities and scores are derived fields, built for a fixed date.
@Suite struct DerivedFieldsTests {
    /// `field: value` lines of every YAML file in a content folder, by file name.
    func values(_ site: String, _ kind: String) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: site + "/content/" + kind) where file.hasSuffix(".yaml") {
            var fields: [String: String] = [:]
            for line in TestSupport.read(site + "/content/\(kind)/" + file).split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
            }
            result[String(file.dropLast(5))] = fields
        }
        return result
    }

    @Test func roomsAreRankedByTheirMostUrgentTask() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site, now: TestSupport.now)
        // Recompute from the listing files: urgency = days since last done / frequency; a room's priority is its max.
        let tasks = try values(site, "tasks"), rooms = try values(site, "rooms")
        var priority: [String: Double] = [:]
        for (_, task) in tasks {
            let lastDone = try #require(CalendarDate(parsing: task["last_done"]![...]))
            let urgency = Double(TestSupport.now.dayNumber - lastDone.dayNumber) / Double(task["frequency_days"]!)!
            priority[task["room"]!] = max(priority[task["room"]!] ?? 0, urgency)
        }
        let expected = rooms.filter { $0.value["house"] == "maple-terrace" }.keys.sorted { priority[$0]! > priority[$1]! }.map { rooms[$0]!["name"]! }
        let house = try TestSupport.json(files, "api/houses/maple-terrace.json")
        let ranked = try #require(house["rooms"] as? [[String: Any]])
        #expect(ranked.map { $0["name"] as? String } == expected)
        #expect(ranked.map { ($0["priority"] as? NSNumber)?.doubleValue } == expected.map { name in
            let slug = rooms.first { $0.value["name"] == name && $0.value["house"] == "maple-terrace" }!.key
            return (priority[slug]! * 100).rounded() / 100
        })
        let page = TestSupport.read(site + "/public/houses/maple-terrace/index.html")
        let headings = page.matches(of: /<h3>([^<]+) <span/).map { String($0.1) }
        #expect(headings == expected)
        // Overdue tasks (urgency above 1: 1.00 is due today) are marked; others are not.
        for (_, task) in tasks where rooms[task["room"]!]!["house"] == "maple-terrace" {
            let lastDone = CalendarDate(parsing: task["last_done"]![...])!
            let overdue = Double(TestSupport.now.dayNumber - lastDone.dayNumber) > Double(task["frequency_days"]!)!
            #expect(page.contains("<td>\(task["name"]!) <strong class=\"tag-overdue\">overdue</strong></td>") == overdue, "\(task["name"]!)")
        }
    }

    /// Kinds that read each other are computed field by field, each after the fields it reads: a task's room
    /// priority looks up its room's priority, which is its tasks' highest urgency, and the room's list of tasks
    /// shows every task's derived fields, its room priority too. Kind by kind, the kind taken first read the
    /// other's listings without their derived fields, and the values were left out without a word.
    @Test func kindsThatReadEachOtherGetEveryValue() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let before = try TestSupport.buildTree(site, now: TestSupport.now)
        TestSupport.write(TestSupport.read(site + "/content/schemas/tasks.yaml") + "  room_priority: {op: lookup, via: room, field: priority}\n",
                          to: site + "/content/schemas/tasks.yaml")
        let after = try TestSupport.buildTree(site, now: TestSupport.now)
        let kitchenBefore = try TestSupport.json(before, "api/rooms/maple-kitchen.json")
        let kitchen = try TestSupport.json(after, "api/rooms/maple-kitchen.json")
        let priority = try #require(kitchen["priority"] as? NSNumber)
        #expect(priority == kitchenBefore["priority"] as? NSNumber)
        let tasks = try #require(kitchen["tasks"] as? [[String: Any]])
        let tasksBefore = try #require(kitchenBefore["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["urgency"] as? NSNumber } == tasksBefore.map { $0["urgency"] as? NSNumber })
        #expect(!tasks.isEmpty && tasks.allSatisfy { $0["room_priority"] as? NSNumber == priority && $0["due"] != nil })
    }

    /// A kind's field gathered from its own listings reads their derived fields, computed first; a list of them
    /// holds their derived fields but not itself, nor the kind's other lists of its own listings. A kind sorted
    /// by a count of its own listings is no loop: a count does not depend on their order.
    @Test func aKindReadsItsOwnListingsDerivedFields() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let schema = site + "/content/schemas/cleaners.yaml"
        TestSupport.write(TestSupport.read(schema).replacingOccurrences(of: "\nderived:\n", with: """

              mentor: {type: reference, to: cleaners}
            derived:
              mentee_rating: {op: average, from: cleaners, via: mentor, field: rating, scale: 2}
              mentees: {op: list, from: cleaners, via: mentor}
              mentees_by_name: {op: list, from: cleaners, via: mentor, sort: [name]}
              mentee_count: {op: count, from: cleaners, via: mentor}

            """).replacingOccurrences(of: "\nsort: [", with: "\nsort: [-mentee_count, "), to: schema)
        for mentee in ["aoife-byrne", "declan-murphy"] {
            let file = site + "/content/cleaners/\(mentee).yaml"
            TestSupport.write(TestSupport.read(file) + "mentor: andreea-popescu\n", to: file)
        }
        let files = try TestSupport.buildTree(site, now: TestSupport.now)
        let ratings = try ["aoife-byrne", "declan-murphy"].map { try #require(TestSupport.json(files, "api/cleaners/\($0).json")["rating"] as? NSNumber).doubleValue }
        let mentor = try TestSupport.json(files, "api/cleaners/andreea-popescu.json")
        #expect((mentor["mentee_rating"] as? NSNumber)?.doubleValue == ((ratings[0] + ratings[1]) / 2 * 100).rounded() / 100)
        let mentees = try #require(mentor["mentees"] as? [[String: Any]])
        #expect(mentees.count == 2 && mentees.allSatisfy { $0["rating"] != nil && $0["mentees"] == nil && $0["mentees_by_name"] == nil })
        #expect(mentor["mentee_count"] as? Int == 2)
        let first = try #require((TestSupport.json(files, "api/cleaners.json")["items"] as? [[String: Any]])?.first)
        #expect(first["slug"] as? String == "andreea-popescu")
    }

    @Test func scoresSumEachPersonsPoints() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site, now: TestSupport.now)
        let tasks = try values(site, "tasks")
        var totals: [String: Int] = [:]
        for (_, entry) in try values(site, "history") where entry["house"] == "maple-terrace" {
            totals[entry["who"]!, default: 0] += Int(tasks[entry["task"]!]!["points"]!)!
        }
        let scores = try #require(try TestSupport.json(files, "api/houses/maple-terrace.json")["scores"] as? [[String: Any]])
        #expect(Dictionary(uniqueKeysWithValues: scores.map { ($0["group"] as! String, $0["total"] as! Int) }) == totals)
        #expect(scores.map { $0["total"] as! Int } == totals.values.sorted(by: >))
        #expect(TestSupport.read(site + "/public/houses/maple-terrace/index.html").contains("<tr><td>Dara</td><td>\(totals["Dara"]!)</td></tr>"))
    }

    /// `times`: a rental's weekend is two days at its day's price, in its JSON and on its page.
    @Test func aWeekendCostsTwoDaysAtTheDaysPrice() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let rentals = try #require(try TestSupport.json(files, "api/rentals.json")["items"] as? [[String: Any]])
        #expect(rentals.count == 14)
        for rental in rentals {
            let day = try #require((rental["price_per_day"] as? NSNumber)?.decimalValue)
            #expect((rental["weekend_price"] as? NSNumber)?.decimalValue == day * 2, "\(rental["slug"] ?? "")")
        }
        let kayak = TestSupport.read(site + "/public/rentals/kayak/index.html")
        #expect(kayak.contains("<dt>A weekend</dt><dd>€90.00 (2 days × €45.00)</dd>"))
    }
}
