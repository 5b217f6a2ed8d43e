import Foundation
import LocatedYAML
import SiteModel

/// Checks the `map:` mapping of `content/site.yaml`: a tile URL template and its attribution, both required.
func decodeMapSettings(_ node: YAMLNode?, problems: inout Problems) -> MapSettings? {
    guard let node, let settings = MappingReader(node, what: "'map'", problems: &problems) else { return nil }
    settings.reportUnknownKeys(known: ["tiles", "attribution"], what: "'map'", problems: &problems)
    let tiles = settings.requiredString("tiles", problems: &problems)
    let attribution = settings.requiredString("attribution", problems: &problems)
    if let tiles, let tilesNode = settings.value("tiles"), let problem = tileTemplateProblem(tiles) {
        problems.error(tilesNode, "'tiles' \(problem), such as https://tile.example.org/{z}/{x}/{y}.png, not '\(tiles)'")
        return nil
    }
    guard let tiles, let attribution else { return nil }
    return MapSettings(tiles: tiles, attribution: attribution)
}

/// What is wrong with a tile URL template, if anything: it must be an absolute http(s) URL once its
/// placeholders are filled in, hold `{z}`, `{x}` and `{y}`, and no placeholder Leaflet would not fill.
private func tileTemplateProblem(_ template: String) -> String? {
    let known = ["{z}", "{x}", "{y}", "{s}", "{r}"]
    var filled = template
    for placeholder in known { filled = filled.replacingOccurrences(of: placeholder, with: "0") }
    if filled.contains("{") || filled.contains("}") { return "may hold only the placeholders {z}, {x}, {y}, {s} and {r}" }
    if !["{z}", "{x}", "{y}"].allSatisfy(template.contains) { return "must hold {z}, {x} and {y}" }
    if !isValidURL(filled) { return "must be an absolute http or https URL template" }
    return nil
}
