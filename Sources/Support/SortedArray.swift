extension Array where Element: Comparable {
    /// Where `element` is, or would go, in this sorted array: the first index whose element is not less.
    public func insertionIndex(of element: Element) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < element { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
