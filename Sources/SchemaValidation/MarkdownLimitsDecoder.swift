import LocatedYAML
import SiteModel

/// Checks the `markdown:` mapping of `content/site.yaml`; anything it leaves out keeps its default.
func decodeMarkdownLimits(_ node: YAMLNode?, problems: inout Problems) -> MarkdownLimits {
    let standard = MarkdownLimits.standard
    guard let node, let settings = MappingReader(node, what: "'markdown'", problems: &problems) else { return standard }
    settings.reportUnknownKeys(known: ["max_nesting", "max_table_cells", "max_html_growth", "max_memory_growth"], what: "'markdown'", problems: &problems)
    return MarkdownLimits(
        maxNesting: settings.int("max_nesting", in: 1...1000, problems: &problems) ?? standard.maxNesting,
        maxTableCells: settings.int("max_table_cells", in: 1...10_000_000, problems: &problems) ?? standard.maxTableCells,
        maxHTMLGrowth: settings.int("max_html_growth", in: 1...1000, problems: &problems) ?? standard.maxHTMLGrowth,
        maxMemoryGrowth: settings.int("max_memory_growth", in: 1...10_000, problems: &problems) ?? standard.maxMemoryGrowth)
}
