import Dispatch

/// Wall time of each stage of a build, in the order they ran, for `noticeboard build --timings`.
public struct StageTimes: Sendable {
    public struct Stage: Sendable {
        public var name: String
        public var seconds: Double
    }

    public private(set) var stages: [Stage] = []
    private var last = DispatchTime.now()

    init() {}

    /// Ends the stage that has been running since the previous call (or since the build started).
    mutating func finish(_ name: String) {
        let now = DispatchTime.now()
        stages.append(Stage(name: name, seconds: Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9))
        last = now
    }
}
