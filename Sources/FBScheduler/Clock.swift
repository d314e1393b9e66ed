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
    /// `now()` with all the work done so far counted: `now()` itself for a
    /// clock that reads the time; one that reads its work lazily (the
    /// virtual clock) reads it first. Where a run starts.
    func settledNow() -> UInt64
}

extension FrameClock {
    public func settledNow() -> UInt64 { now() }

    public func finish(until deadline: UInt64) {
        while now() < deadline { sleep(until: deadline) }
    }
}

/// A clock that moves only when told: `sleep(until:)` jumps to the deadline.
///
/// Tests use it directly; the simulated display's `clock=virtual` is one.
/// Work done between waits takes no time on it unless `advance(by:)` says so
/// (a test's stall, a slow present), or unless it is given a `work` clock
/// (the CPU time drawing uses): then it also moves as that one does, so the
/// work done between waits (drawing a frame) costs on it what it cost the
/// CPU, and only the waits are skipped.
///
/// Reading a CPU clock is a system call (about 0.6 us here: a fifth of a
/// steady orbit frame when the clock read it twice a frame), so
/// the work clock is read only where the work must be counted:
/// `settledNow()`, where a run starts and where a display presents (the
/// present lands after the drawing). `now()` adds the work read last, and
/// a wait jumps from there: it absorbs the work read before it. Work done
/// since (a frame's bookkeeping after its present, or a frame that changed
/// nothing) is counted at the next read, after the wait: never lost, only
/// charged to the next frame.
public final class ManualClock: FrameClock {
    /// Nanoseconds jumped and advanced; `now()` adds the work done since the start.
    public private(set) var time: UInt64
    /// Every deadline `sleep(until:)` was asked for, in order (for tests).
    public private(set) var sleeps: [UInt64] = []
    /// Whether to record `sleeps` (off for long runs: it grows).
    public var recordsSleeps: Bool
    private let work: (() -> UInt64)?
    private let workStart: UInt64
    /// The work done since the clock was made, as read last.
    private var worked: UInt64 = 0

    /// - Parameter work: a clock of the work done (CPU nanoseconds, never
    ///   decreasing) whose progress `now()` adds; `nil`: work takes no time.
    public init(start: UInt64 = 0, recordsSleeps: Bool = false, work: (() -> UInt64)? = nil) {
        time = start
        self.recordsSleeps = recordsSleeps
        self.work = work
        workStart = work?() ?? 0
    }

    /// The time, with the work done until the last read of the work clock.
    public func now() -> UInt64 { time + worked }

    /// Reads the work clock (a system call for a CPU clock) and returns the
    /// time with all the work done until now.
    public func settledNow() -> UInt64 {
        if let work {
            let w = work()
            if w > workStart + worked { worked = w - workStart }
        }
        return time + worked
    }

    public func sleep(until deadline: UInt64) {
        if recordsSleeps { sleeps.append(deadline) }
        // From the work read last: reading it again here would cost a
        // system call a frame.
        let current = now()
        if deadline > current { time += deadline - current }
    }

    /// Moves time on, as work that takes `nanoseconds` would.
    public func advance(by nanoseconds: UInt64) { time += nanoseconds }
}
