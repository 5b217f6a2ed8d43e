import LocatedYAML
import SiteModel

/// Checks the `images:` mapping of `content/site.yaml`; anything it leaves out keeps its default.
func decodeImageSettings(_ node: YAMLNode?, problems: inout Problems) -> ImageSettings {
    let standard = ImageSettings.standard
    guard let node, let settings = MappingReader(node, what: "'images'", problems: &problems) else { return standard }
    settings.reportUnknownKeys(known: ["widths", "quality", "max_megapixels"], what: "'images'", problems: &problems)
    var widths = standard.widths
    if let list = settings.value("widths") {
        if case .sequence(let items) = list.content, (1...10).contains(items.count) {
            widths = []
            for item in items {
                guard case .scalar(let text, .plain) = item.content, let width = Int(text), (16...8192).contains(width) else {
                    problems.error(item, "each width in 'widths' must be a whole number of pixels from 16 to 8192, not \(item.summary)")
                    continue
                }
                if widths.contains(width) { problems.error(item, "the width \(width) is listed twice") }
                widths.append(width)
            }
        } else {
            let given = if case .sequence(let items) = list.content { "a list of \(items.count)" } else { list.summary }
            problems.error(list, "'widths' must be a list of 1 to 10 widths in pixels, such as [320, 640, 1280], not \(given)")
        }
    }
    return ImageSettings(
        widths: widths, quality: settings.int("quality", in: 1...100, problems: &problems) ?? standard.quality,
        maxMegapixels: settings.int("max_megapixels", in: 1...1000, problems: &problems) ?? standard.maxMegapixels)
}
