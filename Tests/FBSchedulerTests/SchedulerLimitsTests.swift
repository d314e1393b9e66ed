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

    /// A presenter whose buffer comes back only after a long wait (a 1 Hz
    /// panel's flip): the waits reach past the end of the run.
    final class SlowFlipPresenter: FramePresenter {
        let clock: ManualClock
        let flip: UInt64
        private(set) var frames = 0
        init(clock: ManualClock, flip: UInt64) {
            self.clock = clock
            self.flip = flip
        }
        /// A flip is pending after each present; asking again once the
        /// buffer is back waits no more (as a display's back buffer).
        private var pending = false
        func prepareFrame() throws {
            if pending { clock.advance(by: flip) }
            pending = false
        }
        func presentFrame(at time: Double) throws -> FrameOutcome {
            frames += 1
            pending = true
            return .presented
        }
    }

    /// However a run ends, every slot is accounted for: a run of 10 s at
    /// 30 fps books 300 slots and lasts 10 s, also when the last wait for a
    /// buffer reaches past its end, or a stop arrives during one.
    @Test(arguments: [UInt64(1_000_000_000), 700_000_000, 3_000_000_000])
    func slotsAreAllBookedWhenAWaitPassesTheEnd(flip: UInt64) throws {
        let clock = ManualClock(start: 5)
        let p = SlowFlipPresenter(clock: clock, flip: flip)
        let scheduler = FrameScheduler(fps: 30, clock: clock)
        let books = try scheduler.run(p, duration: 10_000_000_000)
        #expect(books.presented + books.dropped == 300)
        #expect(books.elapsed == 10_000_000_000)
        #expect(books.presented == p.frames)

        let stopped = ManualClock(start: 5)
        let q = SlowFlipPresenter(clock: stopped, flip: flip)
        let stopping = try FrameScheduler(fps: 30, clock: stopped).run(q) { q.frames == 4 }
        // Stopped right after frame 4, shown in the slot the clock is in: that
        // slot and every one before it are booked.
        let current = slotContaining(stopped.now() - 5, fps: 30)
        #expect(stopping.presented == 4)
        #expect(stopping.presented + stopping.dropped == current + 1)
    }

    /// A clock whose one long sleep is cut short at `stopAt`, as a stop
    /// signal cuts a real one.
    final class InterruptedClock: FrameClock {
        private(set) var time: UInt64 = 0
        let stopAt: UInt64
        private(set) var interrupted = false
        init(stopAt: UInt64) { self.stopAt = stopAt }
        func now() -> UInt64 { time }
        func sleep(until deadline: UInt64) {
            if deadline > stopAt && !interrupted {
                time = max(time, stopAt)
                interrupted = true
            } else {
                time = max(time, deadline)
            }
        }
    }

    /// A stop during the wait after an unchanged frame books the slots the
    /// picture stayed, the one the clock is in included: as a stop after a
    /// presented frame does (its slot is booked).
    @Test func stopDuringAnUnchangedWaitBooksTheCurrentSlot() throws {
        let clock = InterruptedClock(stopAt: slotStart(10, fps: 30) + 5_000_000)
        final class Presenter: FramePresenter {
            var calls = 0
            func presentFrame(at time: Double) throws -> FrameOutcome {
                calls += 1
                return calls == 1 ? .presented : .unchanged(until: 100)
            }
        }
        let p = Presenter()
        let books = try FrameScheduler(fps: 30, clock: clock).run(p) { clock.interrupted }
        #expect(p.calls == 2)
        #expect(books.presented == 11, "slots 0...10")
        #expect(books.dropped == 0)
    }
}
