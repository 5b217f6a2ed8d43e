import CMimalloc

/// How mimalloc, the program's allocator (Package.swift), holds memory.
enum Allocator {
    /// Memory a stage frees goes back to the system at once, instead of staying with the allocator for a while
    /// in case it is asked for again: each stage frees most of what the one before made, in other sizes, and the
    /// build's peak counted both. L full builds into tmpfs, three alternating runs: peak RSS 437, 419, 422 ->
    /// 402, 399, 399 MB; user time 26.1, 23.2, 21.6 -> 23.6, 22.0, 23.0 s (system time 3.0-3.6 -> 3.9-4.1 s).
    static func returnFreedMemoryAtOnce() {
        mi_option_enable(mi_option_page_reset)
        mi_option_set(mi_option_decommit_delay, 0)
        mi_option_set(mi_option_segment_decommit_delay, 0)
    }
}
