import Testing

@testable import FBScheduler

/// The books of what frames cost the CPU and of the slots a still picture
/// kept: what `--stats` reports as `draw_cpu_ms` and `frames_unchanged`.
@Suite struct SchedulerCPUBooksTests {
    /// A CPU clock the presenter moves: `burn` nanoseconds a frame.
    final class CPUMeter {
        var used: UInt64 = 1_000
    }

    /// A presenter that burns `cost(call)` CPU nanoseconds on each frame
    /// (and as much time on `clock`, as drawing takes on a real clock).
    final class BurningPresenter: FramePresenter {
        let clock: ManualClock
        let meter: CPUMeter
        let cost: (Int) -> UInt64
        var outcome: (Int, Double) -> FrameOutcome = { _, _ in .presented }
        private(set) var calls = 0

        init(clock: ManualClock, meter: CPUMeter, cost: @escaping (Int) -> UInt64) {
            self.clock = clock
            self.meter = meter
            self.cost = cost
        }

        func presentFrame(at time: Double) throws -> FrameOutcome {
            let c = cost(calls)
            meter.used += c
            clock.advance(by: c)
            defer { calls += 1 }
            return outcome(calls, time)
        }
    }

    @Test func drawingCPUTimeIsBookedForEachNewFrame() throws {
        let clock = ManualClock()
        let meter = CPUMeter()
        // 1, 2, ... 9 ms; frame 4 changed nothing (its cost counts in the total only).
        let p = BurningPresenter(clock: clock, meter: meter) { UInt64($0 + 1) * 1_000_000 }
        p.outcome = { call, time in call == 4 ? .unchanged(until: time) : .presented }
        let books = try FrameScheduler(fps: 50, clock: clock, cpuTime: { meter.used }).run(
            p, slots: 9)
        #expect(p.calls == 9)
        #expect(books.drawCPUTimes.count == 8)
        #expect(books.drawCPUTimes.maximum == 9_000_000)
        #expect(books.drawCPUTimes.minimum == 1_000_000)
        #expect(books.drawCPUTotal == 45_000_000)
        // Each frame's time on the clock is its drawing: the same figures.
        #expect(books.frameTimes.maximum == books.drawCPUTimes.maximum)
    }

    @Test func withoutACPUClockNothingIsBooked() throws {
        let clock = ManualClock()
        let meter = CPUMeter()
        let p = BurningPresenter(clock: clock, meter: meter) { _ in 3_000_000 }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 5)
        #expect(books.drawCPUTimes.count == 0 && books.drawCPUTotal == 0)
        #expect(books.frameTimes.count == 5)
    }

    @Test func slotsAStillPictureKeptAreBookedUnchanged() throws {
        // Frame 0 is new, frame 1 (slot 1) changes nothing before slot 12:
        // slots 1...11 keep the picture; new frames from slot 12 on.
        let clock = ManualClock()
        let meter = CPUMeter()
        let p = BurningPresenter(clock: clock, meter: meter) { _ in 0 }
        p.outcome = { call, _ in call == 1 ? .unchanged(until: slotTime(12, fps: 30)) : .presented }
        let books = try FrameScheduler(fps: 30, clock: clock).run(p, slots: 30)
        #expect(books.presented == 30 && books.dropped == 0)
        #expect(books.unchanged == 11)
        #expect(books.framesDrawn == 19)
        #expect(p.calls == 20)
    }
}
