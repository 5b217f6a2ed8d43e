import Dispatch
import Foundation

/// Wall time, CPU time and memory of each stage of a build, in the order they ran, for `noticeboard build
/// --timings`: a stage whose CPU time is near its wall time ran on one core; the memory says which stage holds
/// the build's peak.
public struct StageTimes: Sendable {
    public struct Stage: Sendable {
        public var name: String
        public var seconds: Double
        /// User and system time of the whole process over the stage, across all its threads.
        public var cpuSeconds: Double
        /// The process's resident memory when the stage ended, and the most it had held by then (Linux's
        /// `VmRSS` and `VmHWM`), in MiB; nil where `/proc/self/status` cannot be read.
        public var residentMiB: Double?
        public var peakMiB: Double?

        /// One line of `--timings`: wall, CPU, resident and peak memory, name.
        public var line: String {
            let memory = [residentMiB, peakMiB].map { $0.map { String(format: "%6.0f", $0) } ?? "     ?" }
            return String(format: "%8.3f s %7.3f s cpu %@ MiB (peak %@)  %@", seconds, cpuSeconds, memory[0], memory[1], name)
        }
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
        let memory = Self.residentMemory()
        stages.append(Stage(
            name: name, seconds: Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9, cpuSeconds: cpu - lastCPU,
            residentMiB: memory["VmRSS"], peakMiB: memory["VmHWM"]))
        (last, lastCPU) = (now, cpu)
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// `/proc/self/status`'s memory lines (`VmRSS:  1234 kB`) in MiB, by name.
    private static func residentMemory() -> [String: Double] {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return [:] }
        var memory: [String: Double] = [:]
        for line in status.split(separator: "\n") where line.hasPrefix("Vm") && line.hasSuffix(" kB") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            if parts.count == 3, let kibibytes = Double(parts[1]) { memory[String(parts[0])] = kibibytes / 1024 }
        }
        return memory
    }
}
