import Testing

@testable import FBScheduler

/// The manual clock with a work clock (the virtual clock's CPU time): work
/// is read where it decides something, a wait absorbs the work done before
/// it as a real wait would, and nothing done is ever lost.
@Suite struct ManualClockWorkTests {
    /// A work clock the test moves, counting its reads (system calls in a real run).
    final class Work {
        var used: UInt64 = 1_000
        var reads = 0
        func read() -> UInt64 {
            reads += 1
            return used
        }
    }

    @Test func nowAddsTheWorkReadLast() {
        let work = Work()
        let clock = ManualClock(start: 100, work: work.read)
        #expect(work.reads == 1)  // where the work starts
        work.used += 500
        #expect(clock.now() == 100)
        #expect(work.reads == 1)
        #expect(clock.settledNow() == 600)
        #expect(clock.now() == 600)
        #expect(work.reads == 2)
        // A deadline already past needs no reading.
        clock.sleep(until: 400)
        #expect(work.reads == 2 && clock.now() == 600)
    }

    /// Work read before a wait is absorbed by it (a real clock would have
    /// moved while it was done); work longer than the wait overruns it.
    /// Work not read yet is counted at the next read, after the wait: the
    /// wait reads nothing (a system call a frame).
    @Test func aWaitAbsorbsTheWorkReadBeforeIt() {
        let work = Work()
        let clock = ManualClock(work: work.read)
        work.used += 3_000_000
        #expect(clock.settledNow() == 3_000_000)
        clock.sleep(until: 5_000_000)
        #expect(clock.now() == 5_000_000)
        work.used += 7_000_000
        #expect(clock.settledNow() == 12_000_000)
        clock.sleep(until: 10_000_000)
        #expect(clock.now() == 12_000_000)
        let reads = work.reads
        work.used += 1_000
        clock.sleep(until: 20_000_000)
        #expect(clock.now() == 20_000_000 && work.reads == reads)
        #expect(clock.settledNow() == 20_001_000)
        work.used += 1
        clock.finish(until: 20_001_000)
        #expect(clock.settledNow() == 20_001_001)
    }

    /// The virtual clock and the scheduler sharing one meter (as fbanim
    /// runs a simulated display): one read of the CPU clock a frame, the
    /// present's (four when the clock and the scheduler each read theirs
    /// around the frame and the wait), and the books of a clock read at
    /// every step.
    @Test func aSharedMeterIsReadOnceAFrame() throws {
        let work = Work()
        let meter = CPUMeter(work.read)
        let clock = ManualClock(work: { meter.read() })
        final class Drawing: FramePresenter {
            let work: Work
            let clock: ManualClock
            var calls = 0
            init(_ work: Work, _ clock: ManualClock) {
                self.work = work
                self.clock = clock
            }
            func presentFrame(at time: Double) throws -> FrameOutcome {
                calls += 1
                work.used += calls % 2 == 0 ? 3_000_000 : 2_000_000
                _ = clock.settledNow()  // a display presenting reads it
                return .presented
            }
        }
        let scheduler = FrameScheduler(fps: 30, clock: clock, cpuMeter: meter)
        let before = work.reads
        let books = try scheduler.run(Drawing(work, clock), slots: 300)
        #expect(books.presented == 300 && books.dropped == 0 && books.late == 0)
        #expect(books.frameTimes.minimum == 2_000_000 && books.frameTimes.maximum == 3_000_000)
        #expect(books.drawCPUTimes.minimum == 2_000_000 && books.drawCPUTimes.maximum == 3_000_000)
        #expect(books.drawCPUTotal == 150 * 5_000_000)
        #expect(work.reads - before <= 300 + 2, "\(work.reads - before) reads")
        // From the third frame on, each begins its 2 or 3 ms before its slot.
        #expect(clock.now() <= slotStart(299, fps: 30) + 1_000_000)
    }

    /// Without a display that reads it, the scheduler reads the meter once
    /// a frame, as the frame ends; each frame's CPU time is still its own.
    @Test func theSchedulerReadsAMeterNoDisplayReadsOnceAFrame() throws {
        let work = Work()
        let meter = CPUMeter(work.read)
        let clock = ManualClock()
        final class Burning: FramePresenter {
            let work: Work
            var calls = 0
            init(_ work: Work) { self.work = work }
            func presentFrame(at time: Double) throws -> FrameOutcome {
                calls += 1
                work.used += UInt64(calls) * 100_000
                return .presented
            }
        }
        let before = work.reads
        let books = try FrameScheduler(fps: 30, clock: clock, cpuMeter: meter).run(
            Burning(work), slots: 30)
        #expect(work.reads - before == 31)  // the start, then one a frame
        #expect(books.drawCPUTimes.minimum == 100_000 && books.drawCPUTimes.maximum == 3_000_000)
        #expect(books.drawCPUTotal == 465 * 100_000)
    }

    /// At 30 fps with frames that cost 2 ms (each a display present that
    /// settles the clock), the books are those of a clock read at every
    /// step, from one reading of the work clock a frame: the present's
    /// (the scheduler's own CPU readings aside).
    @Test func aRunReadsTheWorkClockOnceAFrame() throws {
        let work = Work()
        let clock = ManualClock(work: work.read)
        final class Drawing: FramePresenter {
            let work: Work
            let clock: ManualClock
            init(_ work: Work, _ clock: ManualClock) {
                self.work = work
                self.clock = clock
            }
            func presentFrame(at time: Double) throws -> FrameOutcome {
                work.used += 2_000_000
                _ = clock.settledNow()  // a display presenting reads it
                return .presented
            }
        }
        let scheduler = FrameScheduler(fps: 30, clock: clock, cpuTime: { work.used })
        let before = work.reads
        let books = try scheduler.run(Drawing(work, clock), slots: 300)
        #expect(books.presented == 300 && books.dropped == 0 && books.late == 0)
        #expect(books.frameTimes.minimum == 2_000_000 && books.frameTimes.maximum == 2_000_000)
        #expect(work.reads - before <= 300 + 2, "\(work.reads - before) reads")
        // From the third frame on, each begins its 2 ms before its slot.
        #expect(clock.now() == slotStart(299, fps: 30))
    }
}
