import SiteModel

/// What the search index's files are made from: every searched listing's document in document order, their
/// terms with postings, and what the meta document says of facet and card files. `serve` keeps it from
/// build to build (`KeptRender`), so that an in-place edit replaces one document's terms instead of reading
/// every document again (`SiteRenderer.searchIndex(replacing:in:)`).
public struct SearchCorpus: Sendable {
    let documents: [SearchDocument]
    let terms: SearchTerms
    /// By kind, facet and value: [name, count, facet file]. An in-place edit changes none.
    let facetValues: [[[Value]]]
    /// Where each card file starts (`SiteRenderer.cardFileStarts`).
    let cardStarts: [Int]
}
