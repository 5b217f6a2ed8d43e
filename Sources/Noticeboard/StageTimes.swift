import Dispatch
import Foundation

/// Wall time and CPU time of each stage of a build, in the order they ran, for `noticeboard build --timings`:
/// a stage whose CPU time is near its wall time ran on one core.
public struct StageTimes: Sendable {
    public struct Stage: Sendable {
        public var name: String
        public var seconds: Double
        /// User and system time of the whole process over the stage, across all its threads.
        public var cpuSeconds: Double
    }

    public private(set) var stages: [Stage] = []
    /// When the first stage began: the build's own start, so that its stages never add up to more than it took.
    private let start: DispatchTime
    private var last: DispatchTime
    private var lastCPU = Self.processCPUSeconds()

    init() {
        start = DispatchTime.now()
        last = start
    }

    /// Wall time since the first stage began.
    var secondsSinceStart: Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }

    /// Ends the stage that has been running since the previous call (or since the build started).
    mutating func finish(_ name: String) {
        let now = DispatchTime.now(), cpu = Self.processCPUSeconds()
        stages.append(Stage(name: name, seconds: Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9, cpuSeconds: cpu - lastCPU))
        (last, lastCPU) = (now, cpu)
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
