import FBScheduler
import Glibc

/// `CLOCK_MONOTONIC` as a `FrameClock`: the real time every FBLinux wait
/// and timeout reads (the DRM flip wait, the event loop's deadlines, a
/// terminal's restore, a pipe's read), injected so tests drive those
/// timeouts with a `ManualClock` instead of waiting.
///
/// Sleeps use absolute deadlines (`clock_nanosleep(TIMER_ABSTIME)`): no
/// drift from relative sleeps. A stop signal cuts `sleep(until:)` short;
/// other caught signals (SIGUSR1, SIGWINCH) do not.
public final class MonotonicClock: FrameClock {
    /// The process has one monotonic clock: share one instance.
    nonisolated(unsafe) public static let shared = MonotonicClock()

    public init() {}

    /// Nanoseconds of `CLOCK_MONOTONIC`.
    public func now() -> UInt64 { monotonicNanoseconds() }

    /// Sleeps until `deadline`, or until a stop signal arrives.
    public func sleep(until deadline: UInt64) {
        // A deadline already past costs no system call.
        if monotonicNanoseconds() >= deadline { return }
        while !sleepUntilMonotonic(deadline) {
            if SignalFlags.stopRequested { return }
        }
    }

    /// Sleeps until `deadline`, whatever arrives.
    public func finish(until deadline: UInt64) {
        if monotonicNanoseconds() >= deadline { return }
        while !sleepUntilMonotonic(deadline) {}
    }
}

/// Sleeps until `deadline` on `CLOCK_MONOTONIC` (absolute: no drift from
/// relative sleeps). Returns early, `false`, when a caught signal arrives.
@discardableResult
package func sleepUntilMonotonic(_ deadline: UInt64) -> Bool {
    var ts = timespec(
        tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    // clock_nanosleep returns the error number instead of setting errno.
    let rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
    precondition(rc == 0 || rc == EINTR, "clock_nanosleep: \(rc)")
    return rc == 0
}
