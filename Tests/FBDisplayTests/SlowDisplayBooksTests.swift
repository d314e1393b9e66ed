import FBRaster
import FBScheduler
import Testing

@testable import FBDisplay

/// A slow display under the scheduler, on the virtual clock with drawing
/// that costs CPU time: one present at a time (never faster than
/// `present_ms`), drawing counted in the frames' times, and the same books
/// as a real clock on which drawing takes that long.
@Suite struct SlowDisplayBooksTests {
    /// The process's CPU time as the tests move it.
    final class CPUMeter {
        var used: UInt64 = 7_000
    }

    /// Draws (burns `drawCost` of CPU, and on a clock without a work clock
    /// as much real time) and presents the whole screen; the picture is
    /// still before `stillUntil` seconds, as the ring's is before 0.5 s.
    final class CostlyPresenter: FramePresenter {
        let display: SimulatedDisplay
        let meter: CPUMeter
        let drawCost: UInt64
        let stillUntil: Double
        /// Set for a "real" clock: drawing takes time on it.
        let realClock: ManualClock?
        private var back: BackBuffer?

        init(
            _ display: SimulatedDisplay, meter: CPUMeter, drawCost: UInt64, stillUntil: Double,
            realClock: ManualClock? = nil
        ) {
            self.display = display
            self.meter = meter
            self.drawCost = drawCost
            self.stillUntil = stillUntil
            self.realClock = realClock
        }

        func prepareFrame() throws {
            if back == nil { back = try display.backBuffer() }
        }

        func presentFrame(at time: Double) throws -> FrameOutcome {
            meter.used += drawCost
            realClock?.advance(by: drawCost)
            if time > 0 && time < stillUntil { return .unchanged(until: stillUntil) }
            let back = try self.back ?? display.backBuffer()
            self.back = nil
            try display.present(damage: [back.surface.bounds])
            return .presented
        }
    }

    struct Run {
        var books: Books
        var presents: Int
    }

    /// Plays `seconds` on `sim:32x24?present_ms=MS&refresh=60`, on the virtual
    /// clock (drawing charged through the work clock) or on a "real" one
    /// (a manual clock drawing advances).
    func play(
        presentMs: String, fps: Int, drawCost: UInt64, virtual: Bool, seconds: Int = 3,
        stillUntil: Double = 0.5
    ) throws -> Run {
        let name =
            "sim:32x24?refresh=60&present_ms=\(presentMs)" + (virtual ? "&clock=virtual" : "")
        guard case let .simulated(options) = try DeviceName.parse(name) else {
            throw DeviceName.ParseError(description: "not a sim")
        }
        let meter = CPUMeter()
        let system = ManualClock(start: 123_456_789)
        let display = SimulatedDisplay(options, systemClock: system, work: { meter.used })
        defer { display.close() }
        let presenter = CostlyPresenter(
            display, meter: meter, drawCost: drawCost, stillUntil: stillUntil,
            realClock: virtual ? nil : system)
        let scheduler = FrameScheduler(
            fps: fps, clock: display.clock ?? system, cpuTime: { meter.used })
        let books = try scheduler.run(presenter, slots: seconds * fps)
        return Run(books: books, presents: display.presentCount)
    }

    static let presents = ["0", "5", "16", "16.7", "25", "33.3", "50", "99"]
    static let rates = [10, 24, 30, 60, 120]
    static let costs: [UInt64] = [0, 300_000, 4_000_000]

    /// However fast frames are asked for, presents follow one another: the
    /// display never presents more than the run's time allows (one present
    /// may run past its end), new frames in the books are the display's
    /// presents, and every slot is booked.
    @Test(arguments: presents)
    func presentsNeverOverlap(presentMs: String) throws {
        let present = UInt64((Double(presentMs)! * 1e6).rounded())
        for fps in Self.rates {
            for cost in Self.costs {
                let run = try play(presentMs: presentMs, fps: fps, drawCost: cost, virtual: true)
                let b = run.books
                let what = "present_ms=\(presentMs) fps=\(fps) draw=\(cost): \(b)"
                #expect(b.framesDrawn == run.presents, "\(what)")
                #expect(
                    UInt64(run.presents) * (present + cost) <= b.elapsed + present + cost, "\(what)"
                )
                #expect(b.slots == 3 * fps || b.slots == 3 * fps + 1, "\(what)")
                // The ring-like still start is booked unchanged, not as presents.
                #expect(b.unchanged > 0 || fps * 5 / 10 <= 1, "\(what)")
                // A frame's time is its drawing and its present, at least.
                #expect(b.frameTimes.minimum >= present + cost, "\(what)")
                #expect(b.drawCPUTimes.minimum == cost && b.drawCPUTimes.maximum == cost, "\(what)")
            }
        }
    }

    /// The virtual clock charges drawing what it cost the CPU: its books are
    /// those of a real clock on which drawing takes that long.
    @Test(arguments: presents)
    func virtualAndRealClocksAgree(presentMs: String) throws {
        for fps in Self.rates {
            for cost in Self.costs {
                let v = try play(presentMs: presentMs, fps: fps, drawCost: cost, virtual: true)
                let r = try play(presentMs: presentMs, fps: fps, drawCost: cost, virtual: false)
                let what = "present_ms=\(presentMs) fps=\(fps) draw=\(cost)"
                #expect(v.presents == r.presents, "\(what): \(v.books) \(r.books)")
                #expect(v.books.dropped == r.books.dropped, "\(what)")
                #expect(v.books.late == r.books.late, "\(what)")
                #expect(v.books.unchanged == r.books.unchanged, "\(what)")
            }
        }
    }

    /// 50 ms presents at 60 Hz, 180 slots: with no drawing, a transfer
    /// ends on the third blank and the next begins there: frames are shown
    /// in slots 3, 6, ... 177 (59). The least drawing pushes each transfer
    /// past the third blank, so the next one waits for the fourth: slots 3,
    /// 7, ... 179 (45), as on a real clock.
    @Test func drawingPushesAPresentPastItsBlank() throws {
        let free = try play(presentMs: "50", fps: 60, drawCost: 0, virtual: true, stillUntil: 0)
        #expect(free.presents == 59)
        let costly = try play(
            presentMs: "50", fps: 60, drawCost: 100_000, virtual: true, stillUntil: 0)
        #expect(costly.presents == 45)
        #expect(costly.books.frameTimes.maximum >= 50_100_000)
    }

    /// Slow drawing makes frames late on the virtual clock too: 40 ms of
    /// drawing at 30 fps lands each frame in the slot after its own.
    @Test func slowDrawingIsLate() throws {
        let run = try play(
            presentMs: "0", fps: 30, drawCost: 40_000_000, virtual: true, stillUntil: 0)
        #expect(run.books.late > 0, "\(run.books)")
        #expect(run.books.drawCPUTimes.maximum == 40_000_000)
        #expect(run.books.frameTimes.minimum >= 40_000_000)
    }
}
