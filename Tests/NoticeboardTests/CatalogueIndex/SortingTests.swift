import Foundation
@testable import CatalogueIndex
import Support
import Testing

/// Text sorts without regard to case or accents, numbers inside it as numbers.
@Suite struct SortingTests {
    @Test func plainTextComparesAsFoundationDoes() {
        var generator = SplitMix64(seed: 42)
        let alphabet = Array("abcxyzABCXYZ -,.'&()_~!".utf8) + Array("é9".utf8)
        func text() -> String {
            String(decoding: (0..<Int(generator.next() % 6)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self)
        }
        for _ in 0..<5000 {
            let (x, y) = (text(), text())
            #expect(compareText(x, y) == x.compare(y, options: .numeric), "\(x) vs \(y)")
        }
    }
}
