import Foundation

/// An SVG's intrinsic size in CSS pixels, from its root element, for `<img width height>`: `width` and
/// `height` in absolute units, else its `viewBox` (scaled to the one that is given), else 300 × 150, the size
/// browsers give an image that has none.
enum SVGSize {
    private static let pixelsPerUnit: [String: Double] = ["": 1, "px": 1, "pt": 4.0 / 3, "pc": 16, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4]

    static func of(root attributes: [String: String]) -> (width: Int, height: Int) {
        if let width = attributes["width"].flatMap(length), let height = attributes["height"].flatMap(length) {
            return (width, height)
        }
        let fallback = (width: 300, height: 150)
        guard let viewBox = attributes["viewBox"] else { return fallback }
        let numbers = viewBox.split { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }.compactMap { Double($0) }
        guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0, numbers[2].isFinite, numbers[3].isFinite else { return fallback }
        if let width = attributes["width"].flatMap(length) { return (width, pixels(Double(width) * numbers[3] / numbers[2])) }
        if let height = attributes["height"].flatMap(length) { return (pixels(Double(height) * numbers[2] / numbers[3]), height) }
        return (pixels(numbers[2]), pixels(numbers[3]))
    }

    /// `200`, `200px`, `2.5cm` in pixels; nil for relative lengths (`%`, `em`) and anything else.
    private static func length(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let unit = String(trimmed.reversed().prefix { $0.isLetter }.reversed())
        guard let factor = pixelsPerUnit[unit.lowercased()], let number = Double(trimmed.dropLast(unit.count)), number > 0, number.isFinite
        else { return nil }
        return pixels(number * factor)
    }

    private static func pixels(_ value: Double) -> Int { max(1, Int(min(value, 1e6).rounded())) }
}
