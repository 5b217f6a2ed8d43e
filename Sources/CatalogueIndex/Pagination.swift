/// One page of a paginated list: page 1 lives at the list's own path, page N at `<path>page/N/`.
public struct Pagination<Item: Sendable>: Sendable {
    public let number: Int
    public let count: Int
    public let items: [Item]
    /// The list's own path, e.g. `cleaners/county/cork/`.
    public let basePath: String

    /// Every page of `items`, at least one (an empty list still has its page).
    public static func pages(of items: some RandomAccessCollection<Item>, size: Int, basePath: String) -> [Pagination] {
        pages(of: items, size: size, basePath: basePath, in: 0..<count(of: items.count, size: size))
    }

    /// The pages of `items` at `positions` (counting from 0), without making the others: a long list's pages
    /// are rendered in groups, and making every page for each group grew with the square of its length.
    public static func pages(
        of items: some RandomAccessCollection<Item>, size: Int, basePath: String, in positions: some Sequence<Int>
    ) -> [Pagination] {
        let count = count(of: items.count, size: size)
        return positions.map { position in
            precondition((0..<count).contains(position), "page \(position) of a list of \(count) pages")
            let start = items.index(items.startIndex, offsetBy: position * size)
            let end = items.index(start, offsetBy: size, limitedBy: items.endIndex) ?? items.endIndex
            return Pagination(number: position + 1, count: count, items: Array(items[start..<end]), basePath: basePath)
        }
    }

    /// How many pages a list of `items` items has: at least one.
    public static func count(of items: Int, size: Int) -> Int {
        max(1, (items + size - 1) / size)
    }

    public static func path(of number: Int, basePath: String) -> String {
        number == 1 ? basePath : "\(basePath)page/\(number)/"
    }

    /// The page numbers a paginator shows on this page: the first, the last, and up to `Self.windowRadius`
    /// either side of this one, nil where pages are skipped. A single skipped page is shown instead, since
    /// its number takes no more room than the gap. At most 9 entries, however long the list: linking every
    /// page from every page made a list's pages grow with the square of its length.
    public var window: [Int?] {
        let near = max(1, number - Self.windowRadius)...min(count, number + Self.windowRadius)
        var shown = Set([1, count]).union(near).sorted()
        for (before, after) in zip(shown, shown.dropFirst()) where after - before == 2 { shown.append(before + 1) }
        shown.sort()
        var window: [Int?] = []
        for (index, page) in shown.enumerated() {
            if index > 0, page - shown[index - 1] > 1 { window.append(nil) }
            window.append(page)
        }
        return window
    }

    public static var windowRadius: Int { 2 }

    public var outputPath: String { Self.path(of: number, basePath: basePath) }
    public var previousPath: String? { number > 1 ? Self.path(of: number - 1, basePath: basePath) : nil }
    public var nextPath: String? { number < count ? Self.path(of: number + 1, basePath: basePath) : nil }
}
