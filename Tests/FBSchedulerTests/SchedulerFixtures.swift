@testable import FBScheduler

/// The start of slot `k` after `start`, computed here independently of the
/// scheduler: exact integer arithmetic, no accumulated period.
func slotStart(_ k: Int, fps: Int, from start: UInt64 = 0) -> UInt64 {
    start + UInt64(k) * 1_000_000_000 / UInt64(fps)
}

/// The animation time the scheduler must pass for slot `k`.
func slotTime(_ k: Int, fps: Int) -> Double {
    Double(UInt64(k) * 1_000_000_000 / UInt64(fps)) / 1e9
}

/// The slot whose animation time is `time` (as `slotTime` gives it).
func slotOf(time: Double, fps: Int) -> Int {
    slotContaining(UInt64((time * 1e9).rounded()), fps: fps)
}

/// The slot that clock offset `t` (ns since the start) lies in, by search over
/// `slotStart` (slow, obviously right): the last k with slotStart(k) <= t.
func slotContaining(_ t: UInt64, fps: Int) -> Int {
    var k = Int(t / 1_000_000_000) * fps
    while slotStart(k + 1, fps: fps) <= t { k += 1 }
    while k > 0 && slotStart(k, fps: fps) > t { k -= 1 }
    return k
}

/// A presenter that takes the time a test tells it to: `stall(call)`
/// nanoseconds are added to the clock inside `presentFrame` for the
/// `call`-th frame asked for (0-based). Records what it was asked.
final class StallingPresenter: FramePresenter {
    let clock: ManualClock
    let stall: (Int) -> UInt64
    var outcome: (Int, Double) -> FrameOutcome = { _, _ in .presented }
    /// Animation times asked for, in order.
    private(set) var times: [Double] = []
    /// Clock readings when each frame was asked for, and when it returned.
    private(set) var began: [UInt64] = []
    private(set) var ended: [UInt64] = []

    init(clock: ManualClock, stall: @escaping (Int) -> UInt64 = { _ in 0 }) {
        self.clock = clock
        self.stall = stall
    }

    var calls: Int { times.count }

    func presentFrame(at time: Double) throws -> FrameOutcome {
        let call = times.count
        times.append(time)
        began.append(clock.now())
        clock.advance(by: stall(call))
        ended.append(clock.now())
        return outcome(call, time)
    }
}

/// A clock that wakes `late(deadline)` nanoseconds after each deadline, as a
/// busy machine's would. Records the deadlines asked for.
final class OversleepingClock: FrameClock {
    var time: UInt64
    var late: (UInt64) -> UInt64
    private(set) var sleeps: [UInt64] = []

    init(start: UInt64 = 0, late: @escaping (UInt64) -> UInt64) {
        time = start
        self.late = late
    }

    func now() -> UInt64 { time }

    func sleep(until deadline: UInt64) {
        sleeps.append(deadline)
        if deadline > time { time = deadline + late(deadline) }
    }
}
