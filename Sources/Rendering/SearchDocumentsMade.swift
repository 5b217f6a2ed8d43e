import SiteModel
import Support

/// What the search index takes from its documents as they are made, a run at a time in document order:
/// their terms, their card files (each once its last document has come) and their range values; the
/// documents themselves only for a corpus kept for an edit in place. Card files are kept, or handed on
/// as they are made (a build's render writes them while the index is still being made: at 10× L they
/// are 66 MB).
struct SearchDocumentsMade {
    let count: Int
    /// Where each card file starts (`SiteRenderer.cardFileStarts`).
    let cardStarts: [Int]
    private let cardSchema: Value
    private let keepingDocuments: Bool
    private var terms = SearchTerms.Collector()
    /// Every document, when kept.
    private(set) var documents: [SearchDocument] = []
    /// By document number, the value of its kind's range field (null without one).
    private(set) var ranges: [Value] = []
    /// The card files made, unless they are handed on.
    private(set) var cardFiles: [OutputFile] = []
    private let handOnCards: (([OutputFile]) -> Void)?
    private var cardFilesMade = 0
    /// The documents, without their text, of the card files not yet whole.
    private var waiting: [SearchDocument] = []

    init(count: Int, cardStarts: [Int], cardSchema: Value, keepingDocuments: Bool, handOnCards: (([OutputFile]) -> Void)?) {
        self.count = count
        self.cardStarts = cardStarts
        self.cardSchema = cardSchema
        self.keepingDocuments = keepingDocuments
        self.handOnCards = handOnCards
    }

    /// The next documents in document order.
    mutating func add(_ run: [SearchDocument]) {
        terms.add(run, numberedFrom: ranges.count)
        ranges += run.map(\.range)
        if keepingDocuments { documents += run }
        waiting += run.map(\.withoutText)
        var whole: [(number: Int, documents: ArraySlice<SearchDocument>)] = []
        var taken = 0
        while cardFilesMade + whole.count < cardStarts.count {
            let number = cardFilesMade + whole.count
            let size = SiteRenderer.cardFileDocuments(number, starts: cardStarts, count: count).count
            guard waiting.count - taken >= size else { break }
            whole.append((number, waiting[taken..<taken + size]))
            taken += size
        }
        let schema = cardSchema
        let made = whole.parallelMap { number, documents in SiteRenderer.cardFile(number, documents, schema: schema) }
        cardFilesMade += made.count
        if let handOnCards { if !made.isEmpty { handOnCards(made) } } else { cardFiles += made }
        waiting.removeFirst(taken)
    }

    /// Every term added, with its postings, sorted; taken out, so that the postings as collected go once
    /// they are sorted.
    mutating func takeSortedTerms() -> SearchTerms {
        exchange(&terms, with: SearchTerms.Collector()).terms()
    }
}
