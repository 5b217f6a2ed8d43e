/// Made-up Markdown of realistic length: paragraphs with emphasis, links and now and then `&` or `<`,
/// and a bullet list in every text of three paragraphs or more.
enum Prose {
    static func markdown(paragraphs: Int, _ choose: inout SeededChoices) -> String {
        let listAt = paragraphs >= 3 ? choose.int(1...(paragraphs - 1)) : -1
        var blocks: [String] = []
        for index in 0..<paragraphs {
            if index == listAt {
                blocks.append((0..<choose.int(3...5)).map { _ in "- " + phrase(choose.int(3...7), &choose) }.joined(separator: "\n"))
            } else {
                blocks.append(paragraph(&choose))
            }
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    static func paragraph(_ choose: inout SeededChoices) -> String {
        var text = sentences(choose.int(2...4), &choose)
        if choose.chance(40) {
            text += " See [our \(choose.pick(Vocabulary.words)) notes](https://example.org/notes/\(choose.int(1...500))) for more."
        }
        if choose.chance(15) { text += " Prices from €\(choose.int(10...40)) & up, < 2 hours' notice." }
        return text
    }

    static func sentences(_ count: Int, _ choose: inout SeededChoices) -> String {
        (0..<count).map { _ -> String in
            var words = phrase(choose.int(8...16), &choose)
            if choose.chance(20) { words += " **\(choose.pick(Vocabulary.words))**" }
            if choose.chance(10) { words += " *\(choose.pick(Vocabulary.words))*" }
            return words + "."
        }.joined(separator: " ")
    }

    /// Words with the first capitalised.
    static func phrase(_ count: Int, _ choose: inout SeededChoices) -> String {
        let words = (0..<count).map { _ in choose.pick(Vocabulary.words) }
        return words[0].prefix(1).uppercased() + words[0].dropFirst() + " " + words.dropFirst().joined(separator: " ")
    }
}
