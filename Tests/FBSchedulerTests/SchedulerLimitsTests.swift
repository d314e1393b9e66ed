import Testing

@testable import FBScheduler

/// Extreme values a caller can pass: they must end the run normally, not trap.
@Suite struct SchedulerLimitsTests {
    @Test func hugeDurationWithASlotLimit() throws {
        let clock = ManualClock(start: 1 << 50)
        let p = StallingPresenter(clock: clock)
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 10, duration: .max)
        #expect(p.calls == 10)
        #expect(books.presented == 10)
    }

    @Test func durationOfCenturiesIsCappedNotOverflowed() throws {
        // 1e18 ns (31 years) at 1000 fps: more slots than the cap; shouldStop ends it.
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        let books = try FrameScheduler(fps: 1000, clock: clock).run(
            p, duration: 1_000_000_000_000_000_000
        ) {
            p.calls == 3
        }
        #expect(books.presented == 3)
    }

    @Test(arguments: [Double.infinity, 1e12, 1e300, Double.greatestFiniteMagnitude])
    func unchangedUntilFarFutureSleepsToTheEnd(until: Double) throws {
        let clock = ManualClock(recordsSleeps: true)
        let p = StallingPresenter(clock: clock)
        p.outcome = { _, _ in .unchanged(until: until) }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 50)
        #expect(p.calls == 1)
        #expect(clock.sleeps == [slotStart(50, fps: 30)])
        #expect(books.presented == 50)
    }

    @Test(arguments: [-Double.infinity, -1, Double.nan])
    func unchangedUntilThePastOrNaNTriesTheNextSlot(until: Double) throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        p.outcome = { _, _ in .unchanged(until: until) }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 5)
        #expect(p.calls == 5)
        #expect(books.presented == 5)
    }

    @Test func unchangedForeverWithoutALimit() throws {
        // On a manual clock the wait jumps to the end of the longest run.
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        p.outcome = { _, _ in .unchanged(until: nil) }
        let books = try FrameScheduler(fps: 1000, clock: clock).run(p)
        #expect(p.calls == 1)
        #expect(books.presented + books.dropped == books.slots)
        #expect(books.slots >= 1 << 30)
    }

    @Test func slotLimitBeyondTheCap() throws {
        let clock = ManualClock()
        let p = StallingPresenter(clock: clock)
        p.outcome = { _, _ in .unchanged(until: nil) }
        let books = try FrameScheduler(fps: 1, clock: clock).run(p, slots: .max)
        #expect(books.presented == books.slots)
    }
}
