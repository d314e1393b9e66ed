/// The CPU time of the thread that draws, in nanoseconds, and the value
/// read last.
///
/// Reading a CPU clock is a system call: about 0.5 us natively, and in a
/// virtual machine the kernel's `task_sched_runtime` makes it dearer (four
/// reads a frame were 28 % of a steady orbit's CPU here). The virtual
/// clock (its work) and the scheduler's books (each frame's CPU) share one
/// meter, so a read serves both: the scheduler takes a frame's start from
/// the last read before it (the one that ended the frame before: a
/// sleeping thread's CPU time stands still, so what lies between is the
/// wait's own system calls; or the virtual clock's, as its wait jumped)
/// and its end from a read the display made as it presented, or reads
/// once. A frame costs one read on a real clock (two before), two on the
/// virtual clock (four before).
public final class CPUMeter {
    private let clock: () -> UInt64
    /// The CPU time read last (by `read()`, or when the meter was made).
    public private(set) var last: UInt64
    /// How many times the CPU clock was read, the first (when made) included.
    public private(set) var reads = 1

    /// - Parameter clock: the CPU time used so far (nanoseconds, never
    ///   decreasing); read once now.
    public init(_ clock: @escaping () -> UInt64) {
        self.clock = clock
        last = clock()
    }

    /// Reads the CPU time now (a system call for a real CPU clock).
    @discardableResult
    public func read() -> UInt64 {
        let now = clock()
        // A CPU clock never goes back; keep `last` monotonic even if one did.
        if now > last { last = now }
        reads &+= 1
        return last
    }
}
