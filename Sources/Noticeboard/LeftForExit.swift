import Synchronization

/// What a build leaves allocated when the process ends right after it (`BuildOptions.processEndsAfter`):
/// freeing a large site's millions of small objects one by one took about 0.35 s at the end of a 12-second
/// build of the 43,000-listing benchmark, for memory the system takes back at exit anyway. Compilers skip
/// the same work for the same reason (clang's -disable-free).
enum LeftForExit {
    private static let kept = Mutex<[any Sendable]>([])

    static func keep(_ values: any Sendable...) {
        kept.withLock { $0.append(contentsOf: values) }
    }
}
