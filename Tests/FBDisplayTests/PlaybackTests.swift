import FBAnimation
import FBRaster
import FBScheduler
import Testing

@testable import FBDisplay

/// A loader on a display, drawn damage-only, as `fbanim` plays it.
final class DamagePresenter: FramePresenter {
    let display: SimulatedDisplay
    let renderer: FrameRenderer
    let clock: FrameClock
    private var back: BackBuffer?
    /// Every frame asked for: its time, whether it was drawn, and the clock when it returned.
    private(set) var calls: [(time: Double, drawn: Bool, ended: UInt64)] = []

    init(_ kind: LoaderKind, on display: SimulatedDisplay) {
        self.display = display
        clock = display.clock!
        renderer = FrameRenderer(
            kind: kind, width: display.description.width, height: display.description.height)
    }

    func prepareFrame() throws {
        if back == nil { back = try display.backBuffer() }
    }

    func presentFrame(at time: Double) throws -> FrameOutcome {
        let back = try self.back ?? display.backBuffer()
        self.back = nil
        guard let damage = renderer.renderDamage(time: time, into: back.surface, age: back.age)
        else {
            self.back = back  // nothing drawn: the buffer stays ours
            calls.append((time, false, clock.now()))
            return .unchanged(until: time)  // try again next slot
        }
        try display.present(damage: damage.rects)
        calls.append((time, true, clock.now()))
        return .presented
    }
}

@Suite struct PlaybackTests {
    struct Outcome {
        var books: Books
        var screen: [UInt8]
        var calls: [(time: Double, drawn: Bool, ended: UInt64)]
    }

    static let fps = 30
    static let slots = 90

    func play(_ kind: LoaderKind, presentMs: String) throws -> Outcome {
        guard
            case let .simulated(options) = try DeviceName.parse(
                "sim:160x120:rgb565?clock=virtual&present_ms=\(presentMs)")
        else { throw DeviceName.ParseError(description: "not a sim") }
        let system = ManualClock(start: 77)
        let display = SimulatedDisplay(options, systemClock: system)
        defer { display.close() }
        let presenter = DamagePresenter(kind, on: display)
        let books = try FrameScheduler(fps: Self.fps, clock: display.clock!).run(
            presenter, slots: Self.slots)
        #expect(system.now() == 77, "the virtual clock did the waiting")
        return Outcome(books: books, screen: bytes(display.screen), calls: presenter.calls)
    }

    func bytes(_ s: Surface) -> [UInt8] {
        let row = s.width * s.format.bytesPerPixel
        return (0..<s.height).flatMap { y in
            [UInt8](UnsafeRawBufferPointer(start: s.base + y * s.stride, count: row))
        }
    }

    /// A full redraw of the loader at `time`, in the display's size and format.
    func reference(_ kind: LoaderKind, at time: Double) -> [UInt8] {
        bytes(renderFrame(kind, width: 160, height: 120, format: .rgb565, time: time).surface)
    }

    func slotTime(_ k: Int) -> Double { Double(UInt64(k) * 1_000_000_000 / UInt64(Self.fps)) / 1e9 }
    func slot(at ns: UInt64) -> Int {
        (0...Self.slots + 2).last { UInt64($0) * 1_000_000_000 / UInt64(Self.fps) <= ns }!
    }

    @Test(arguments: LoaderKind.allCases)
    func fastPresentsFillEverySlot(kind: LoaderKind) throws {
        // 5 ms presents fit in a 33 ms slot: every slot gets its frame (or
        // keeps an unchanged one), at the time of the slot.
        let run = try play(kind, presentMs: "5")
        #expect(run.books.presented == 90)
        #expect(run.books.dropped == 0)
        #expect(run.books.late == 0)
        #expect(run.books.elapsed == 3_000_000_000)
        #expect(run.calls.map(\.time) == (0..<90).map(slotTime))
        let onTime = run.calls.allSatisfy {
            !$0.drawn || slot(at: $0.ended) == Int(($0.time * 30).rounded())
        }
        #expect(onTime)
        #expect(run.calls.filter(\.drawn).count > 10)
        // Damage-only frames on two swapping buffers end on the picture a full redraw gives.
        #expect(run.screen == reference(kind, at: slotTime(89)))
    }

    @Test(arguments: LoaderKind.allCases)
    func slowPresentsLandEveryThreeBlanks(kind: LoaderKind) throws {
        // 50 ms presents at 30 fps, each latched on the first 60 Hz blank at
        // or after its transfer (50 ms is three blanks): a new frame every
        // 50 ms at most, two every three slots, the slots between dropped.
        let run = try play(kind, presentMs: "50")
        let books = run.books
        #expect(books.presented + books.dropped == 90, "every slot of the run is booked")
        let drawn = run.calls.filter(\.drawn)
        let drawnSlots = drawn.map { Int(($0.time * 30).rounded()) }
        let landed = drawn.map { slot(at: $0.ended) }
        // The first two frames drawn start on their slot and land in the next
        // (late); from then on each starts 50 ms ahead and lands in its slot.
        #expect(books.late == 2)
        #expect(Array(zip(drawnSlots, landed).prefix(2)).allSatisfy { $1 == $0 + 1 })
        #expect(Array(zip(drawnSlots, landed).dropFirst(2)).allSatisfy { $1 == $0 })
        // One transfer at a time: new frames end at least 50 ms apart, and
        // (across no unchanged frame) one or two slots apart.
        // Whether no unchanged frame came between new frames j - 1 and j.
        func adjacent(_ j: Int) -> Bool {
            !run.calls.contains {
                !$0.drawn && $0.time > drawn[j - 1].time && $0.time < drawn[j].time
            }
        }
        for i in 1..<drawn.count {
            #expect(drawn[i].ended - drawn[i - 1].ended >= 50_000_000, "\(kind) frame \(i)")
            // Steady, 50 ms apart: alternately one and two slots (after the
            // first three frames, which start late).
            if i >= 3 && adjacent(i) && adjacent(i - 1) {
                let gap = landed[i] - landed[i - 1]
                let previous = landed[i - 1] - landed[i - 2]
                #expect((1...2).contains(gap) && gap + previous == 3, "\(kind) frame \(i)")
            }
        }
        // Dropped: every slot no frame landed in and no unchanged frame kept.
        let kept = run.calls.filter { !$0.drawn }.count
        #expect(books.presented == drawn.count + kept)
        #expect(run.screen == reference(kind, at: run.calls.last!.time))
    }

    @Test func slowPresentsOfAnAlwaysChangingLoaderExactly() throws {
        // The radar changes every frame: frames drawn for slots 0, 2, then
        // 5, 6, 8, 9, ... (one every 50 ms); 59 presented, 31 dropped.
        let run = try play(.radar, presentMs: "50")
        let allDrawn = run.calls.allSatisfy { $0.drawn }
        #expect(allDrawn)
        let steady = (5...89).filter { $0 % 3 != 1 }
        #expect(run.calls.map(\.time) == ([0, 2] + steady).map(slotTime))
        #expect(run.books.presented == 59)
        #expect(run.books.dropped == 31)
        #expect(run.books.late == 2)
    }

    @Test(arguments: [("ring", "5"), ("radar", "50"), ("spinner", "0"), ("orbit", "33.4")])
    func twoRunsAreIdentical(name: String, presentMs: String) throws {
        let kind = LoaderKind(rawValue: name)!
        let a = try play(kind, presentMs: presentMs)
        let b = try play(kind, presentMs: presentMs)
        #expect(a.books.presented == b.books.presented)
        #expect(a.books.dropped == b.books.dropped)
        #expect(a.books.late == b.books.late)
        #expect(a.books.elapsed == b.books.elapsed)
        #expect(a.books.frameTimes.maximum == b.books.frameTimes.maximum)
        #expect(a.books.frameTimes.percentile(0.5) == b.books.frameTimes.percentile(0.5))
        #expect(a.calls.map(\.time) == b.calls.map(\.time))
        #expect(a.calls.map(\.ended) == b.calls.map(\.ended))
        #expect(a.screen == b.screen)
    }
}
