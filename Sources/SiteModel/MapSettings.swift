/// Where map pages take their background tiles from: the `map:` mapping of `content/site.yaml`. Without it a
/// map page shows its places as a list only.
public struct MapSettings: Sendable, Hashable {
    /// A Leaflet tile URL template, `https://tile.example.org/{z}/{x}/{y}.png`.
    public var tiles: String
    /// Who the tiles come from, shown on the map as text (tile services require it).
    public var attribution: String

    public init(tiles: String, attribution: String) {
        self.tiles = tiles
        self.attribution = attribution
    }
}
