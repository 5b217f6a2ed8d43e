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
