/// Sorted lists of numbers (document numbers, positions) as compact JSON strings: each number is the
/// difference from the one before (the first from 0), written as a variable-length number in base 64
/// with 5 bits a digit, low bits first; a digit from the upper half of `digits` says another follows.
/// The search page's script decodes them (`decode` in `assets/search.js`).
enum SearchPostings {
    static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_".utf8)

    static func append(_ number: Int, to output: inout [UInt8]) {
        var rest = number
        while rest >= 32 {
            output.append(digits[32 + (rest & 31)])
            rest >>= 5
        }
        output.append(digits[rest])
    }

    /// Numbers in increasing order, each as its difference from the last.
    static func encode(increasing numbers: [Int32]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(numbers.count)
        var last: Int32 = 0
        for number in numbers {
            append(Int(number - last), to: &output)
            last = number
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension SearchPostings {
    /// Reads back the numbers `append` wrote, one at a time (for an in-place edit of the index's terms).
    struct Reader {
        private var bytes: String.UTF8View.Iterator

        init(_ postings: String) {
            bytes = postings.utf8.makeIterator()
        }

        /// The next number; nil at the end.
        mutating func next() -> Int? {
            var number = 0, shift = 0
            while let byte = bytes.next() {
                let digit = Int(SearchPostings.values[Int(byte)])
                if digit < 32 { return number | digit << shift }
                number |= (digit - 32) << shift
                shift += 5
            }
            return nil
        }
    }

    /// Each byte's place in `digits`.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0, count: 256)
        for (index, digit) in digits.enumerated() { values[Int(digit)] = UInt8(index) }
        return values
    }()
}
