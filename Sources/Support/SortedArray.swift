extension Array {
    /// Where an element whose `key` is `key` is, or would go, in this array sorted by `key`: the first index
    /// whose element's key is not less.
    /// Inlinable, so that a caller in another module gets it specialized: generic, it copied each element
    /// it looked at (4.3 s of CPU in the versions lookups of a 10× L build).
    @inlinable
    public func insertionIndex<Key: Comparable>(of key: Key, by keyOf: (Element) -> Key) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if keyOf(self[middle]) < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Array where Element: Comparable {
    /// Where `element` is, or would go, in this sorted array: the first index whose element is not less.
    @inlinable
    public func insertionIndex(of element: Element) -> Int {
        insertionIndex(of: element) { $0 }
    }
}
