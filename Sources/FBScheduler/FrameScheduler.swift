/// What a presenter did with the frame the scheduler asked for.
public enum FrameOutcome: Sendable, Equatable {
    /// A new picture was drawn and is on screen.
    case presented
    /// Nothing changed: the picture on screen is already this frame. Nothing
    /// will change before animation time `until` (seconds), or, when `nil`,
    /// before something outside the animation happens.
    case unchanged(until: Double?)
}

/// Draws and shows frames for the scheduler: a loader on a display.
public protocol FramePresenter: AnyObject {
    /// Waits until a frame can be drawn (a display's buffer is free again
    /// after the flip that replaced it). Not counted in the frame's time.
    /// Called after the wait for the frame's slot, and again (it must then
    /// return at once) when that wait was cut short or the buffer came back
    /// too late for the slot planned.
    func prepareFrame() throws

    /// Draws the frame for animation time `time` (seconds since the start)
    /// and presents it (a page flip or a copy is queued or done).
    func presentFrame(at time: Double) throws -> FrameOutcome
}

extension FramePresenter {
    public func prepareFrame() throws {}
}

/// Plays frames on time: slots of 1/fps seconds from the start, absolute
/// deadlines (no drift), one frame per slot at most, and books that account
/// for every slot.
///
/// A frame is drawn for the time of the slot it will be shown in, so the
/// animation follows the clock, never the frame count: after a stall the
/// next frame jumps to where the animation is now, and the slots the stall
/// ate are counted dropped. Where frames take long (a slow SPI panel), the
/// scheduler starts each one that long before its slot (the shortest of the
/// last few frames, so one stall does not make the next frames start, and
/// show, early) and draws it for the slot it will land in.
public final class FrameScheduler {
    public let fps: Int
    public let clock: FrameClock
    public private(set) var books: Books
    private var start: UInt64 = 0
    private var next = 0
    /// The draw-and-present times of the last three frames drawn, newest first.
    private var recent: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var recentCount = 0

    /// The CPU time of the thread that draws, read as each frame ends.
    private let cpu: CPUMeter?

    /// - Parameter cpuTime: the CPU time of the thread that draws (fbanim:
    ///   `CLOCK_THREAD_CPUTIME_ID`), in nanoseconds; with it
    ///   the books keep the CPU time each frame took (`drawCPUTimes`).
    /// - Precondition: `1 <= fps <= 1000`.
    public convenience init(fps: Int, clock: FrameClock, cpuTime: (() -> UInt64)? = nil) {
        self.init(fps: fps, clock: clock, cpuMeter: cpuTime.map(CPUMeter.init))
    }

    /// - Parameter cpuMeter: the CPU time of the thread that draws; with it
    ///   the books keep the CPU time each frame took (`drawCPUTimes`): from
    ///   the meter's last read before the frame (the end of the frame
    ///   before, so the wait's own system calls are in it, or a read the
    ///   wait made) to the end of this one. That end is read once a frame,
    ///   or not at all when the display read the meter while presenting
    ///   (after the drawing: the virtual clock's work). Share the
    ///   display's (`Display.workMeter`).
    /// - Precondition: `1 <= fps <= 1000`.
    public init(fps: Int, clock: FrameClock, cpuMeter: CPUMeter?) {
        precondition((1...1000).contains(fps), "fps out of range")
        self.fps = fps
        self.clock = clock
        cpu = cpuMeter
        books = Books(fps: fps)
    }

    /// The start of slot `k` on the clock: exact integer arithmetic from the
    /// start, so deadlines never drift.
    public func deadline(ofSlot k: Int) -> UInt64 {
        start + UInt64(k) * 1_000_000_000 / UInt64(fps)
    }

    /// The slot that contains clock time `t`: the last one whose deadline is
    /// at or before `t` (the inverse of `deadline(ofSlot:)`, so a wait to a
    /// slot's deadline lands in that slot). Saturates instead of overflowing.
    public func slot(at t: UInt64) -> Int {
        t <= start ? 0 : slot(offset: t - start)
    }

    /// The last slot whose deadline is at most `d` ns after the start:
    /// floor(((d + 1) * fps - 1) / 1e9), split so nothing overflows.
    private func slot(offset d: UInt64) -> Int {
        let q = d / 1_000_000_000
        let r = d % 1_000_000_000
        let f = UInt64(fps)
        return Int(q * f + ((r + 1) * f - 1) / 1_000_000_000)
    }

    /// The first slot whose animation time is at or after `time` seconds,
    /// within `0...limit`. A nanosecond early rather than late, so a time
    /// this scheduler handed out (rounded through `Double`) gives its slot.
    private func firstSlot(atOrAfter time: Double, limit: Int) -> Int {
        guard !time.isNaN, time > 0 else { return 0 }
        guard time < Double(limit) / Double(fps) + 1 else { return limit }
        let ns = max(UInt64((time * 1e9).rounded()), 1) - 1
        // deadline(k) >= start + ns  <=>  k * 1e9 >= ns * fps.
        let (q, r) = (ns * UInt64(fps)).quotientAndRemainder(dividingBy: 1_000_000_000)
        return min(Int(q) + (r > 0 ? 1 : 0), limit)
    }

    /// How long the next frame is expected to take: the shortest of the last
    /// three drawn (two at least), so a single slow frame moves nothing.
    private var expected: UInt64 {
        switch recentCount {
        case 0, 1: 0
        case 2: min(recent.0, recent.1)
        default: min(recent.0, recent.1, recent.2)
        }
    }

    /// Plays until `slots` slots have passed, `duration` nanoseconds have
    /// passed, or `shouldStop()` says so (checked between frames and after
    /// every wait), whichever comes first. Returns the books.
    ///
    /// - Throws: what the presenter throws; the books up to then stay in `books`.
    @discardableResult
    public func run(
        _ presenter: FramePresenter, slots: Int? = nil, duration: UInt64? = nil,
        shouldStop: () -> Bool = { false }
    ) throws -> Books {
        start = clock.settledNow()
        cpu?.read()
        next = 0
        recentCount = 0
        books = Books(fps: fps)
        // Without a limit, a run ends by `shouldStop`; the cap (2^31 slots,
        // 2 years at 30 fps) only keeps deadline arithmetic inside 64 bits.
        let forever = Int(Int32.max)
        let lastSlot = min(
            slots ?? forever, duration.map { slot(offset: max($0, 1) - 1) + 1 } ?? forever)
        // The run covers the slots it accounted for, whole (also when the
        // presenter throws; the returned books get it below).
        defer { books.elapsed = deadline(ofSlot: next) - start }
        try play(presenter, lastSlot: lastSlot, shouldStop: shouldStop)
        books.elapsed = deadline(ofSlot: next) - start
        return books
    }

    private func play(_ presenter: FramePresenter, lastSlot: Int, shouldStop: () -> Bool) throws {
        // However the run ends (its last slot, a stop, a wait for a flip that
        // reached past the end), the slots that passed without a new frame
        // are dropped: presented + dropped is the slots elapsed.
        defer {
            let passed = min(slot(at: clock.now()), lastSlot)
            if passed > next {
                books.dropped += passed - next
                next = passed
            }
        }
        while next < lastSlot && !shouldStop() {
            let now = clock.now()
            // The slot a frame begun now would land in, and when to begin it.
            let target = max(next, slot(at: now + expected))
            if target >= lastSlot {
                // No frame could land in the run: it shows the last one to its end.
                clock.sleep(until: deadline(ofSlot: lastSlot))
                break
            }
            let wake = deadline(ofSlot: target) - min(expected, deadline(ofSlot: target) - start)
            if wake > now {
                clock.sleep(until: wake)
                if shouldStop() { break }
                // Woken early (an input changed the picture): the slot is
                // still ahead, so work out again when to begin it.
                if clock.now() < wake { continue }
            }
            // The back buffer, after the sleep: a display that flips at its
            // refresh gave it back long ago, so a frame costs one wake-up,
            // not one for the flip and one for the slot.
            try presenter.prepareFrame()
            let began = clock.now()
            // It came back late (a slow panel's transfer): plan again from now.
            if slot(at: began + expected) > target { continue }
            let time = Double(deadline(ofSlot: target) - start) / 1e9
            // The CPU time since the meter's last read (the end of the last
            // frame, or the wait's); a read the display made while
            // presenting (after the drawing) ends this frame's.
            let (cpuBefore, readsBefore) = (cpu?.last ?? 0, cpu?.reads ?? 0)
            let outcome = try presenter.presentFrame(at: time)
            let ended = clock.now()
            let cpuAfter = cpu.map { $0.reads != readsBefore ? $0.last : $0.read() } ?? 0
            let frameCPU = cpuAfter - cpuBefore
            books.drawCPUTotal += frameCPU
            let shown = max(target, slot(at: ended))
            books.dropped += shown - next
            books.presented += 1
            next = shown + 1
            switch outcome {
            case .presented:
                let took = ended - began
                books.frameTimes.record(took)
                if cpu != nil { books.drawCPUTimes.record(frameCPU) }
                if shown > target { books.late += 1 }
                recent = (took, recent.0, recent.1)
                recentCount += 1
            case let .unchanged(until):
                books.unchanged += 1
                // The picture stays right until `until`: those slots are shown, not dropped.
                let resume = until.map { firstSlot(atOrAfter: $0, limit: lastSlot) } ?? lastSlot
                let wake = min(max(resume, next), lastSlot)
                // The frame may have been what made the run stop (a splash's
                // quit is due once its last frame is up): ask before a long wait.
                if wake > next && shouldStop() { break }
                if wake > next {
                    // Wait until the frame of slot `wake` must begin (as in
                    // the loop above), or to the end of the run.
                    let lead = wake < lastSlot ? min(expected, deadline(ofSlot: wake) - start) : 0
                    let begin = deadline(ofSlot: wake) - lead
                    clock.sleep(until: begin)
                    // Cut short (a stop request): the slots up to the one the
                    // clock is in kept the picture (as a presented frame books
                    // its own slot).
                    let now = clock.now()
                    let reached = now >= begin ? wake : min(max(slot(at: now) + 1, next), wake)
                    books.presented += reached - next
                    books.unchanged += reached - next
                    next = reached
                }
            }
        }
    }
}
