import CMarqueeShims
import MarqueeApp

/// glibc serves a block of 128 kB or more by mmap, and gives it back to the
/// kernel when it is freed, only until the first such block is freed: then
/// it raises that threshold to the block's size (up to 32 MB), and pictures
/// (3 MB at 1080p, 12 MB at 4K) come from the threads' arenas, which keep
/// what is freed for reuse. A decoder closed while playing (the one that
/// decodes a start's first picture ahead, the one replaced by frame
/// threads) set it off: 4K HEVC given frame threads peaked 90 MB higher.
/// Fixed at glibc's default, large blocks always come from the kernel and
/// go back when freed; libavcodec's pictures are pooled, so few are mapped.
enum LargeAllocations {
    static let threshold: Int32 = 128 << 10

    static func returnToTheKernel() {
        if marquee_malloc_mmap_threshold(threshold) == 0 {
            Diagnostics.error("warning: mallopt(M_MMAP_THRESHOLD, \(threshold)) refused: freed pictures may stay in the process")
        }
    }
}
