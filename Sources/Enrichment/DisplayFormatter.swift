import Foundation
import SiteModel

/// Human-readable text for numbers with a display format, in the site's language and currency.
public struct DisplayFormatter: Sendable {
    private let currency: Decimal.FormatStyle.Currency
    private let locale: Locale

    public init(language: String, currency: String) {
        locale = Locale(identifier: language)
        self.currency = Decimal.FormatStyle.Currency(code: currency, locale: locale)
    }

    public func text(for value: Value, format: DisplayFormat, maximum: Double?) -> String? {
        let number: Decimal
        switch value {
        case .int(let whole): number = Decimal(whole)
        case .decimal(let fixed): number = Decimal(sign: fixed.units < 0 ? .minus : .plus, exponent: -fixed.scale, significand: Decimal(fixed.units.magnitude))
        default: return nil
        }
        switch format {
        case .currency:
            return number.formatted(currency)
        case .rating:
            let maximum = maximum ?? DisplayFormat.defaultRatingMaximum
            let outOf = maximum == maximum.rounded() && abs(maximum) < 1e15 ? String(Int64(maximum)) : String(maximum)
            // In the site's language, as its prices are: "4,7" beside "22,00 zł" on a Polish site.
            let shown = number.formatted(.number.precision(.fractionLength(0...1)).locale(locale))
            return "\(shown) out of \(outOf)"
        }
    }
}
