import Foundation

/// The sync documents a site publishes under `api/sync/` (see the README's "For app developers"), as the
/// client reads them. Unknown fields are ignored, so a site that adds fields within the same API version
/// still syncs.
public enum SyncFormat {
    /// The API version this client understands; a site with another refuses to sync rather than guess.
    public static let apiVersion = 1
    public static let headPath = "api/sync/head.json"
    /// Where the head's `tree` is below the site's base URL, which the head's absolute URL of it therefore tells.
    static let treePath = "api/sync/tree.json"

    public struct Head: Decodable, Sendable {
        public var apiVersion: Int
        public var build: Int
        public var date: String
        /// The digest of the tree: the identity of the synced files as a whole.
        public var root: String
        public var tree: Linked
        /// Newest first.
        public var changes: [Change]

        enum CodingKeys: String, CodingKey {
            case apiVersion = "api_version", build, date, root, tree, changes
        }
    }

    /// A document the head points at, with the size and SHA-256 to check it by.
    public struct Linked: Decodable, Sendable {
        public var url: String
        public var size: Int
        public var sha256: String
    }

    public struct Change: Decodable, Sendable {
        public var build: Int
        public var from: String
        public var to: String
        public var url: String
        public var size: Int
        public var sha256: String
    }

    public struct Tree: Decodable, Sendable {
        public var files: Int
        public var buckets: [Bucket]
    }

    public struct Bucket: Decodable, Sendable {
        public var bucket: String
        public var url: String
        public var files: Int
        public var size: Int
        public var sha256: String
    }

    public struct BucketFiles: Decodable, Sendable {
        public var files: [File]
    }

    /// A file of the synced set: its path below the site's root (`api/cleaners/aoife-byrne.json`).
    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var size: Int
        public var sha256: String
    }

    public struct ChangeList: Decodable, Sendable {
        public var build: Int
        public var from: String
        public var to: String
        public var changed: [File]
        public var removed: [String]
        /// The new digests of the buckets holding those files; absent from a site that does not list them.
        public var buckets: [BucketDigest]?
    }

    public struct BucketDigest: Decodable, Sendable {
        public var bucket: String
        public var sha256: String
    }
}
