import CMimalloc

/// How mimalloc, the program's allocator (Package.swift), holds memory.
enum Allocator {
    /// Memory a stage frees goes back to the system at once, instead of staying with the allocator for a while
    /// in case it is asked for again: each stage frees most of what the one before made, in other sizes, and the
    /// build's peak counted both. L full builds into tmpfs, three alternating runs: peak RSS 437, 419, 422 ->
    /// 402, 399, 399 MB. Resetting each freed page as well (`mi_option_page_reset`) kept the same peak (386.8
    /// against 386.9 MiB, medians of 5 alternating pairs) for 6 % more wall time, so it is left off.
    /// `build` asks for this; `serve` does not. An edit in place reads, splices and writes the same few large
    /// documents each time, and memory that stays a moment is used again instead of being faulted in anew:
    /// at L, 5 edits in each of two alternating sessions, 0.318 and 0.355 s against 0.224 and 0.251 s (medians).
    static func returnFreedMemoryAtOnce() {
        mi_option_set(mi_option_decommit_delay, 0)
        mi_option_set(mi_option_segment_decommit_delay, 0)
    }
}
