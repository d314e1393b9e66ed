import Testing
import _FBTestSupport

@testable import FBScheduler

/// Deadlines, limits, stopping and waits for unchanged frames.
@Suite struct SchedulerTimingTests {
    @Test func deadlinesNeverDriftAt30FPS() throws {
        let clock = ManualClock(recordsSleeps: true)
        let n = 10_000
        let books = try FrameScheduler(fps: 30, clock: clock).run(
            StallingPresenter(clock: clock), slots: n)
        // Frame 0 is drawn at once; then one wait per slot, to its start,
        // each computed from the run's start (no sleep after the last frame).
        #expect(clock.sleeps.count == n - 1)
        #expect(clock.sleeps == (1..<n).map { UInt64($0) * 1_000_000_000 / 30 })
        #expect(clock.sleeps.last == 333_300_000_000)  // not 9999 * 33_333_333
        #expect(books.presented == n)
    }

    @Test(arguments: [1, 7, 60, 144, 1000])
    func deadlinesAreAbsoluteFromTheStart(fps: Int) throws {
        let start: UInt64 = 1_234_567_891
        let clock = ManualClock(start: start, recordsSleeps: true)
        try FrameScheduler(fps: fps, clock: clock).run(
            StallingPresenter(clock: clock), slots: 3_000)
        #expect(clock.sleeps == (1..<3_000).map { slotStart($0, fps: fps, from: start) })
    }

    @Test func deadlinesIgnoreHowLateTheClockWoke() throws {
        // A clock that wakes up to 40 % of a slot late must not push later
        // deadlines back (relative sleeps would).
        var rng = SeededRandom(seed: 42)
        let lateness = (0..<2_000).map { _ in UInt64.random(in: 0...13_000_000, using: &rng) }
        var i = 0
        let clock = OversleepingClock { _ in
            defer { i += 1 }
            return lateness[i]
        }
        let scheduler = FrameScheduler(fps: 30, clock: clock)
        final class Nothing: FramePresenter {
            func presentFrame(at time: Double) throws -> FrameOutcome { .presented }
        }
        let books = try scheduler.run(Nothing(), slots: 2_000)
        #expect(clock.sleeps == (1..<2_000).map { slotStart($0, fps: 30) })
        #expect(books.presented == 2_000)
        #expect(books.dropped == 0)
    }

    @Test func slotLimit() throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        let books = try FrameScheduler(fps: 25, clock: clock).run(p, slots: 17)
        #expect(p.calls == 17)
        #expect(books.slots == 17)
        let none = try FrameScheduler(fps: 25, clock: clock).run(
            StallingPresenter(clock: clock), slots: 0)
        #expect(none.slots == 0)
        #expect(none.elapsed == 0)
    }

    @Test func durationLimitPlaysTheSlotsThatStartWithinIt() throws {
        // Slot k is played when it starts before the duration ends.
        var rng = SeededRandom(seed: 7)
        for _ in 0..<400 {
            let fps = [1, 24, 30, 60, 144, 1000].randomElement(using: &rng)!
            let duration = UInt64.random(in: 1...3_000_000_000, using: &rng)
            let expected = (0...3_000).first { slotStart($0, fps: fps) >= duration }!
            let clock = ManualClock()
            let p = StallingPresenter(clock: clock)
            let books = try FrameScheduler(fps: fps, clock: clock).run(p, duration: duration)
            #expect(p.calls == expected, "fps \(fps), duration \(duration)")
            #expect(books.slots == expected)
        }
        // Edges at 30 fps: slot 1 starts at 33_333_333 ns.
        for (duration, slots) in [
            (UInt64(33_333_333), 1), (33_333_334, 2), (1_000_000_000, 30), (1_000_000_001, 31),
        ] {
            let clock = ManualClock()
            let books = try FrameScheduler(fps: 30, clock: clock).run(
                StallingPresenter(clock: clock), duration: duration)
            #expect(books.slots == slots, "duration \(duration)")
        }
    }

    @Test func theTighterLimitWins() throws {
        let clock = ManualClock()
        let a = try FrameScheduler(fps: 50, clock: clock).run(
            StallingPresenter(clock: clock), slots: 10, duration: 1_000_000_000)
        #expect(a.slots == 10)
        let b = try FrameScheduler(fps: 50, clock: clock).run(
            StallingPresenter(clock: clock), slots: 1_000, duration: 100_000_000)
        #expect(b.slots == 5)
    }

    @Test func aStallAcrossTheEndCountsTheSlotsItAte() throws {
        // The frame of slot 8 of 10 takes 3.5 slots and is shown in slot 11.
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock) { $0 == 8 ? 70_000_000 : 0 }
        let books = try FrameScheduler(fps: 50, clock: clock).run(p, slots: 10)
        #expect(p.calls == 9)
        #expect(books.presented == 9)
        #expect(books.dropped == 3)
        #expect(books.late == 1)
    }

    @Test func shouldStopEndsBetweenFrames() throws {
        let clock = ManualClock(recordsSleeps: true)
        let p = StallingPresenter(clock: clock)
        let books = try FrameScheduler(fps: 30, clock: clock).run(p) { p.calls >= 7 }
        #expect(p.calls == 7)
        #expect(books.slots == 7)
        #expect(clock.sleeps.count == 6)

        let never = StallingPresenter(clock: clock)
        let empty = try FrameScheduler(fps: 30, clock: clock).run(never) { true }
        #expect(never.calls == 0)
        #expect(empty.slots == 0)
    }

    @Test func shouldStopIsAskedAfterEveryWait() throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        try FrameScheduler(fps: 30, clock: clock).run(p) { clock.now() >= slotStart(5, fps: 30) }
        #expect(p.calls == 5)
        #expect(p.times.last == slotTime(4, fps: 30))
    }

    @Test func unchangedUntilCreditsSlotsAndWakesAtTheRightSlot() throws {
        // Frame 0 says nothing changes before slot 10's time: slots 1...9 keep
        // that picture (presented), and the next frame is slot 10, on time.
        let clock = ManualClock(recordsSleeps: true)
        let p = StallingPresenter(clock: clock)
        p.outcome = { call, _ in call == 0 ? .unchanged(until: slotTime(10, fps: 30)) : .presented }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 100)
        #expect(p.times == [0] + (10..<100).map { slotTime($0, fps: 30) })
        #expect(p.began == [0] + (10..<100).map { slotStart($0, fps: 30) })
        #expect(clock.sleeps == (10..<100).map { slotStart($0, fps: 30) })
        #expect(books.presented == 100)
        #expect(books.dropped == 0)
        #expect(books.frameTimes.count == 90)
    }

    @Test func unchangedUntilBetweenSlotsWakesAtTheFirstSlotAtOrAfterIt() throws {
        // Slot 10's frame (time < until) would still be unchanged: slot 11 is next.
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        let until = slotTime(10, fps: 30) + 0.25 / 30
        p.outcome = { call, _ in call == 0 ? .unchanged(until: until) : .presented }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 20)
        #expect(p.times == [0] + (11..<20).map { slotTime($0, fps: 30) })
        #expect(books.presented == 20)
    }

    @Test func unchangedUntilNowMeansTryTheNextSlot() throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        p.outcome = { _, time in .unchanged(until: time) }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 12)
        #expect(p.times == (0..<12).map { slotTime($0, fps: 30) })
        #expect(books.presented == 12)
        #expect(books.frameTimes.count == 0)
    }

    @Test func unchangedForeverSleepsToTheEndOfTheLimit() throws {
        let clock = ManualClock(recordsSleeps: true)
        let p = StallingPresenter(clock: clock)
        p.outcome = { call, _ in call == 2 ? .unchanged(until: nil) : .presented }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 100)
        #expect(p.calls == 3)
        #expect(
            clock.sleeps == [slotStart(1, fps: 30), slotStart(2, fps: 30), slotStart(100, fps: 30)])
        #expect(books.presented == 100)
        #expect(books.dropped == 0)

        let d = ManualClock(recordsSleeps: true)
        let q = StallingPresenter(clock: d)
        q.outcome = { _, _ in .unchanged(until: nil) }
        let byDuration = try FrameScheduler(fps: 50, clock: d).run(q, duration: 1_000_000_000)
        #expect(d.sleeps == [1_000_000_000])
        #expect(byDuration.presented == 50)
    }
}

extension SchedulerTimingTests {
    @Test func unchangedWaitWakesAheadForSlowFrames() throws {
        // 30 ms frames at 50 fps start 30 ms ahead of their slot. Frame 4
        // (slot 8) is unchanged until slot 20: the wait ends 30 ms before
        // slot 20, so its frame lands on time instead of dropping slot 20.
        let clock = ManualClock(recordsSleeps: true)
        let p = StallingPresenter(clock: clock) { $0 == 4 ? 0 : 30_000_000 }
        p.outcome = { call, _ in call == 4 ? .unchanged(until: slotTime(20, fps: 50)) : .presented }
        let books = try FrameScheduler(fps: 50, clock: clock).run(p, slots: 21)
        #expect(p.times.map { slotOf(time: $0, fps: 50) } == [0, 2, 5, 6, 8, 20])
        #expect(clock.sleeps.last == slotStart(20, fps: 50) - 30_000_000)
        #expect(p.ended.last == slotStart(20, fps: 50))
        #expect(books.dropped == 4)  // 0 and 2 (the first, late frames), 4 and 7
        #expect(books.presented == 17)  // 6 frames and slots 9...19 kept
        #expect(books.late == 2)
    }
}
