import Testing
import _FBTestSupport

@testable import FBScheduler

/// Seeded random loads: stalls from nothing to ten slots, frames that change
/// or not. The books must account for every slot, whatever happens.
@Suite struct SchedulerRandomLoadTests {
    struct Run {
        var fps: Int
        var n: Int
        var start: UInt64
        var presenter: StallingPresenter
        var books: Books
        var clock: ManualClock
        /// Slot each frame was drawn for, and the slot the clock was in when it returned.
        var drawn: [Int]
        var landed: [Int]
        /// `until` slot of each frame that came back unchanged, else nil.
        var until: [Int?]
    }

    func play(_ rng: inout SeededRandom, unchanged: Bool) throws -> Run {
        let fps = [10, 24, 25, 30, 50, 60, 75, 144, 1000].randomElement(using: &rng)!
        let n = Int.random(in: 1...250, using: &rng)
        let slot = 1_000_000_000 / UInt64(fps)
        let stalls = (0..<n).map { _ -> UInt64 in
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<6: UInt64.random(in: 0...slot, using: &rng)
            case 6..<9: UInt64.random(in: 0...3 * slot, using: &rng)
            default: UInt64.random(in: 3 * slot...10 * slot, using: &rng)
            }
        }
        // -3 and below: a new frame; otherwise unchanged until `w` slots from this one.
        let waits = (0..<n).map { _ in unchanged ? Int.random(in: -6...6, using: &rng) : -9 }
        let start = UInt64.random(in: 0...1 << 40, using: &rng)
        let clock = ManualClock(start: start)
        let p = StallingPresenter(clock: clock) { stalls[$0] }
        var until: [Int?] = []
        p.outcome = { call, time in
            let drawn = slotOf(time: time, fps: fps)
            guard waits[call] > -3 else {
                until.append(nil)
                return .presented
            }
            let u = max(0, drawn + waits[call])
            until.append(u)
            return .unchanged(until: slotTime(u, fps: fps))
        }
        let books = try FrameScheduler(fps: fps, clock: clock).run(p, slots: n)
        return Run(
            fps: fps, n: n, start: start, presenter: p, books: books, clock: clock,
            drawn: p.times.map { slotOf(time: $0, fps: fps) },
            landed: p.ended.map { slotContaining($0 - start, fps: fps) }, until: until)
    }

    /// What the books must say, replayed from the clock readings: a frame
    /// fills the slot it lands in (or its own, if it landed early); slots
    /// after an unchanged frame up to its `until` keep the picture; every
    /// other slot without a frame is dropped.
    func check(_ r: Run) {
        let shown = zip(r.drawn, r.landed).map { max($0, $1) }
        var dropped = 0
        var credited = 0
        var free = 0  // the first slot not yet accounted for
        for i in 0..<r.drawn.count {
            dropped += shown[i] - free  // in flight, or nothing drawn for them
            free = shown[i] + 1
            if let u = r.until[i] {
                let kept = max(0, min(max(u, free), r.n) - free)
                credited += kept
                free += kept
            }
        }
        // The run lasts its n slots: those after the last frame get none.
        if free < r.n {
            dropped += r.n - free
            free = r.n
        }
        let ctx = "fps \(r.fps), \(r.n) slots"
        #expect(r.books.presented == r.drawn.count + credited, "\(ctx)")
        #expect(r.books.dropped == dropped, "\(ctx)")
        #expect(r.books.slots == free, "\(ctx)")
        // Late: new frames that landed after their slot (unchanged ones draw nothing).
        let late = (0..<r.drawn.count).filter { r.until[$0] == nil && r.landed[$0] > r.drawn[$0] }
        #expect(r.books.late == late.count, "\(ctx)")
        // Each frame draws the animation at the time of its slot, one per slot.
        #expect(zip(shown.dropLast(), r.drawn.dropFirst()).allSatisfy { $0 < $1 }, "\(ctx)")
        #expect(r.drawn.allSatisfy { $0 < r.n }, "\(ctx)")
        // Never drawn before `until`.
        for i in 1..<max(1, r.drawn.count) {
            if let u = r.until[i - 1] { #expect(r.drawn[i] >= u, "\(ctx)") }
        }
        // Started ahead of its slot by no more than the shortest of the
        // three frames before it (the first two frames drawn: not at all).
        var took: [UInt64] = []
        for i in 0..<r.drawn.count {
            let due = slotStart(r.drawn[i], fps: r.fps, from: r.start)
            let lead = due - min(r.presenter.began[i], due)
            let bound = took.count < 2 ? 0 : took.suffix(3).min()!
            #expect(lead <= bound, "\(ctx), frame \(i)")
            if r.until[i] == nil { took.append(r.presenter.ended[i] - r.presenter.began[i]) }
        }
        // The books cover the slots that have passed, within one (and the
        // lead of the last frame, which is on screen ahead of its slot).
        let elapsed = slotContaining(r.clock.now() - r.start, fps: r.fps) + 1
        #expect(r.books.slots >= min(elapsed, r.n) - 1, "\(ctx)")
        #expect(r.books.elapsed == slotStart(r.books.slots, fps: r.fps), "\(ctx)")
    }

    @Test func newFramesUnderRandomStalls() throws {
        var rng = SeededRandom(seed: 0x5EED)
        for _ in 0..<300 { check(try play(&rng, unchanged: false)) }
    }

    @Test func newAndUnchangedFramesUnderRandomStalls() throws {
        var rng = SeededRandom(seed: 0xC0FFEE)
        for _ in 0..<300 { check(try play(&rng, unchanged: true)) }
    }
}
