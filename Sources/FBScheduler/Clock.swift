/// A monotonic time line in nanoseconds that the scheduler waits on.
///
/// Injected, so tests drive time by hand and a simulated display can keep
/// its own virtual time; the real one (`CLOCK_MONOTONIC` with absolute
/// `clock_nanosleep`) lives in FBLinux.
public protocol FrameClock: AnyObject {
    /// Nanoseconds since an arbitrary origin; never decreases.
    func now() -> UInt64
    /// Returns at `deadline` or later; at once when it has passed. A clock
    /// may return early when the run is being stopped (a signal).
    func sleep(until deadline: UInt64)
    /// Returns at `deadline` or later, even while the run is being stopped:
    /// work in flight (a slow panel's transfer) finishes.
    func finish(until deadline: UInt64)
}

extension FrameClock {
    public func finish(until deadline: UInt64) {
        while now() < deadline { sleep(until: deadline) }
    }
}

/// A clock that moves only when told: `sleep(until:)` jumps to the deadline.
///
/// Tests use it directly; the simulated display's `clock=virtual` is one.
/// Work done between waits takes no time on it unless `advance(by:)` says so
/// (a test's stall, a slow present), or unless it is given a `work` clock
/// (the process's CPU time): then it also moves as that one does, so the
/// work done between waits (drawing a frame) costs on it what it cost the
/// CPU, and only the waits are skipped.
public final class ManualClock: FrameClock {
    /// Nanoseconds jumped and advanced; `now()` adds the work done since the start.
    public private(set) var time: UInt64
    /// Every deadline `sleep(until:)` was asked for, in order (for tests).
    public private(set) var sleeps: [UInt64] = []
    /// Whether to record `sleeps` (off for long runs: it grows).
    public var recordsSleeps: Bool
    private let work: (() -> UInt64)?
    private let workStart: UInt64

    /// - Parameter work: a clock of the work done (CPU nanoseconds, never
    ///   decreasing) whose progress `now()` adds; `nil`: work takes no time.
    public init(start: UInt64 = 0, recordsSleeps: Bool = false, work: (() -> UInt64)? = nil) {
        time = start
        self.recordsSleeps = recordsSleeps
        self.work = work
        workStart = work?() ?? 0
    }

    /// The work done since the clock was made (0 without a work clock).
    private var worked: UInt64 {
        guard let work else { return 0 }
        let w = work()
        return w > workStart ? w - workStart : 0
    }

    public func now() -> UInt64 { time + worked }

    public func sleep(until deadline: UInt64) {
        if recordsSleeps { sleeps.append(deadline) }
        let current = now()
        if deadline > current { time += deadline - current }
    }

    /// Moves time on, as work that takes `nanoseconds` would.
    public func advance(by nanoseconds: UInt64) { time += nanoseconds }
}
