/// Paths below a site root, spelled in one place.
public enum SitePaths {
    /// The git-ignored folder beside `content/` where builds keep what is not output: build records, the
    /// image cache, `serve`'s output.
    public static let cacheFolder = ".noticeboard-cache"

    /// `relative` below `root`, without a leading `./` when the root is the current folder.
    public static func path(_ relative: String, in root: String) -> String {
        root == "." ? relative : root + "/" + relative
    }

    /// `relative` below the site's cache folder.
    public static func cache(_ relative: String, in root: String) -> String {
        path(cacheFolder + "/" + relative, in: root)
    }
}
