import Testing
import _FBTestSupport

@testable import FBRaster

/// A fill that keeps its coverage (`keepCoverage`), and every later fill
/// replaying it, must give the bytes of a plain fill: any shape, paint,
/// format and clip, and once the budget is spent.
@Suite struct KeptCoverageTests {
    static let width = 67
    static let height = 53

    static func randomShape(_ rng: inout SeededRandom) -> Shape {
        func fixed(_ range: ClosedRange<Int64>) -> Fixed {
            Fixed(raw: Int64.random(in: range, using: &rng))
        }
        let center = Point(x: fixed(-(8 << 16)...(8 << 16)), y: fixed(-(8 << 16)...(8 << 16)))
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            return .disc(center: center, radius: fixed((1 << 15)...(30 << 16)))
        case 1:
            return .arc(
                center: center, radius: fixed((4 << 16)...(26 << 16)),
                width: fixed((1 << 16)...(8 << 16)),
                start: Angle(raw: UInt32.random(in: 0...UInt32.max, using: &rng)),
                sweep: AngleSpan(raw: Int64.random(in: -(1 << 32)...(1 << 32), using: &rng)),
                cap: Bool.random(using: &rng) ? .round : .butt)
        case 2:
            let half = fixed((3 << 16)...(12 << 16))
            return .roundedRectStroke(
                center: center, halfWidth: half, halfHeight: fixed((3 << 16)...(30 << 16)),
                cornerRadius: half, lineWidth: fixed((1 << 16)...(6 << 16)))
        default:
            var path = Path()
            path.move(to: center)
            for _ in 0..<3 {
                path.curve(
                    to: Point(
                        x: fixed(-(30 << 16)...(30 << 16)), y: fixed(-(30 << 16)...(30 << 16))),
                    control1: Point(x: fixed(-(30 << 16)...(30 << 16)), y: fixed(0...(30 << 16))),
                    control2: Point(x: fixed(-(30 << 16)...(30 << 16)), y: fixed(-(30 << 16)...0)))
            }
            path.close()
            return .path(path)
        }
    }

    /// A scale of 0.5-2, any turn, placed up to 10 pixels off a `width` x
    /// `height` surface.
    static func randomTransform(width w: Int, height h: Int, _ rng: inout SeededRandom)
        -> Transform
    {
        Transform(
            scale: ScaleFactor(raw: Int64.random(in: (1 << 23)...(1 << 25), using: &rng)),
            rotation: Angle(raw: UInt32.random(in: 0...UInt32.max, using: &rng)),
            translation: Point(
                x: Fixed(raw: Int64.random(in: -(10 << 16)...(Int64(w + 10) << 16), using: &rng)),
                y: Fixed(raw: Int64.random(in: -(10 << 16)...(Int64(h + 10) << 16), using: &rng))))
    }

    static func randomPaint(_ rng: inout SeededRandom) -> Paint {
        let color = Color(
            rgb: UInt32.random(in: 0...0xFF_FFFF, using: &rng),
            // Half opaque: their edges take the blend tables.
            alpha: Bool.random(using: &rng) ? 255 : UInt8.random(in: 1...254, using: &rng))
        if Int.random(in: 0..<4, using: &rng) == 0 {
            return .sweep(
                SweepGradient(
                    center: .zero,
                    start: Angle(raw: UInt32.random(in: 0...UInt32.max, using: &rng)),
                    sweep: AngleSpan(raw: 1 << 31), color: color, startAlpha: 0, endAlpha: 255))
        }
        return .solid(color)
    }

    /// Fills shapes at random places (some hanging off the edges) through
    /// random clips, each shape several times, over backdrops cleared now
    /// and then, in two rasterizers: one keeping coverage (with `budget`
    /// bytes), one with no budget (every fill drawn, none kept; those
    /// turned half a turn or more reflected all the same, `HalfTurn`).
    /// Same bytes.
    func compareWithPlainFills(budget: Int, seed: UInt64) -> Int {
        var rng = SeededRandom(seed: seed)
        let w = KeptCoverageTests.width
        let h = KeptCoverageTests.height
        let keeping = Rasterizer()
        let cache = RasterCache(keptBytes: budget)
        let plain = Rasterizer()
        let none = RasterCache(keptBytes: 0)
        var compared = 0
        // Each fill marks its blocks here: every pixel it changes must be in one.
        let marks = PaintedBlocks(width: w, height: h)
        var unmarkedChanges = 0
        for format in PixelFormat.allCases {
            let a = PixelBuffer(width: w, height: h, format: format)
            let b = PixelBuffer(width: w, height: h, format: format)
            for i in 0..<40 {
                if i % 10 == 0 {
                    // A cleared backdrop, which opaque edges blend over by table.
                    let backdrop = Color(rgb: UInt32.random(in: 0...0xFF_FFFF, using: &rng))
                    keeping.clear(a.surface, to: backdrop, cache: cache)
                    plain.clear(b.surface, to: backdrop, cache: none)
                }
                let shape = KeptCoverageTests.randomShape(&rng)
                let transform = KeptCoverageTests.randomTransform(width: w, height: h, &rng)
                for _ in 0..<3 {
                    let paint = KeptCoverageTests.randomPaint(&rng)
                    let x = Int.random(in: -5..<w, using: &rng)
                    let y = Int.random(in: -5..<h, using: &rng)
                    let clip: IntRect? =
                        Bool.random(using: &rng)
                        ? nil
                        : IntRect(
                            x: x, y: y, width: Int.random(in: 1...w, using: &rng),
                            height: Int.random(in: 1...h, using: &rng))
                    let before = Array(a.bytes)
                    marks.unmark(inside: IntRect(x: 0, y: 0, width: w, height: h))
                    keeping.fill(
                        shape, transform: transform, paint: paint, on: a.surface, clip: clip,
                        cache: cache, keepCoverage: true, marking: marks)
                    plain.fill(
                        shape, transform: transform, paint: paint, on: b.surface, clip: clip,
                        cache: none, keepCoverage: true)
                    unmarkedChanges += changedOutsideMarks(before, a, marks)
                    compared += 1
                }
            }
            #expect(differingBytes(a, b) == 0, "\(format) budget \(budget)")
        }
        #expect(unmarkedChanges == 0, "pixels changed outside the blocks marked")
        #expect(cache.keptCoverage.bytes <= budget)
        return cache.keptCoverage.shapes
    }

    @Test func replayedFillsEqualPlainFills() {
        let kept = compareWithPlainFills(budget: CoverageCache.defaultBudget, seed: 11)
        // Every shape on the surface was kept (and then replayed twice).
        #expect(kept > 100)
    }

    @Test func aSpentBudgetFallsBackToPlainFills() {
        // Room for a few shapes: the rest are drawn the plain way.
        let kept = compareWithPlainFills(budget: 6000, seed: 12)
        #expect(kept > 0 && kept < 40)
    }

    /// Wide rows of code: segments hundreds of pixels from the area's left
    /// edge (across an annulus's hole) and rows of hundreds of bytes (a
    /// sliver 3 pixels tall and 605 long: its edges cross hundreds of
    /// pixels a row). Replayed, they give the bytes of a plain fill.
    @Test func longGapsAndLongRowsReplayAsPlainFills() {
        let (w, h) = (620, 600)
        let annulus = Shape.annulus(
            center: Point(x: Fixed(310), y: Fixed(300)), inner: Fixed(250), outer: Fixed(270))
        var sliver = Path()
        sliver.move(to: Point(x: Fixed(5), y: Fixed(20)))
        sliver.line(to: Point(x: Fixed(610), y: Fixed(22)))
        sliver.line(to: Point(x: Fixed(5), y: Fixed(23)))
        sliver.close()
        let backdrop = Color(rgb: 0x1C1C1E)
        let paint = Paint.solid(Color(rgb: 0xFF9500))
        let keeping = Rasterizer()
        let cache = RasterCache()
        let kept = PixelBuffer(width: w, height: h, format: .xrgb8888)
        let plain = PixelBuffer(width: w, height: h, format: .xrgb8888)
        Rasterizer().clear(plain.surface, to: backdrop)
        for shape in [annulus, .path(sliver)] {
            Rasterizer().fill(shape, paint: paint, on: plain.surface)
        }
        // The first pass keeps the coverage, the second paints it from the code.
        for pass in 0..<2 {
            keeping.clear(kept.surface, to: backdrop, cache: cache)
            for shape in [annulus, .path(sliver)] {
                keeping.fill(
                    shape, paint: paint, on: kept.surface, cache: cache, keepCoverage: true)
            }
            #expect(differingBytes(kept, plain) == 0, "pass \(pass)")
        }
        #expect(cache.keptCoverage.shapes == 2)
    }

    /// A kept ring replayed through clips that end or begin in its hole,
    /// so that a row's code is left before its last segment: with one
    /// colour (painted from the code) and with a sweep (replayed as runs),
    /// the rows after it are the right ones (the same bytes as plain fills).
    @Test func clipsEndingInsideARowReplayAsPlainFills() {
        let (w, h) = (80, 80)
        let ring = Shape.annulus(
            center: Point(x: Fixed(40), y: Fixed(40)), inner: Fixed(18), outer: Fixed(30))
        // Three bars on the same rows (edges off the pixel grid): a row of
        // three segments, two of them right of a clip ending at x = 20.
        var bars = Path()
        for left in [8.25, 38.5, 66.75] {
            bars.move(to: Point(x: Fixed(left), y: Fixed(6.5)))
            bars.line(to: Point(x: Fixed(left + 7.5), y: Fixed(6.5)))
            bars.line(to: Point(x: Fixed(left + 7.5), y: Fixed(73.25)))
            bars.line(to: Point(x: Fixed(left), y: Fixed(73.25)))
            bars.close()
        }
        let paints: [Paint] = [
            .solid(Color(rgb: 0xFF9500)), .solid(Color(rgb: 0x34C759, alpha: 128)),
            .sweep(
                SweepGradient(
                    center: Point(x: Fixed(40), y: Fixed(40)), start: .zero,
                    sweep: AngleSpan(raw: 1 << 31), color: Color(rgb: 0x5856D6),
                    startAlpha: 0, endAlpha: 255)),
        ]
        let clips = [
            IntRect(x: 0, y: 0, width: 40, height: 80), IntRect(x: 5, y: 12, width: 30, height: 50),
            IntRect(x: 40, y: 0, width: 40, height: 80),
            IntRect(x: 30, y: 20, width: 20, height: 40),
            IntRect(x: 0, y: 3, width: 20, height: 70),
        ]
        let backdrop = Color(rgb: 0x1C1C1E)
        for paint in paints {
            let keeping = Rasterizer()
            let cache = RasterCache()
            for clip in clips {
                for shape in [ring, .path(bars)] {
                    let kept = PixelBuffer(width: w, height: h, format: .xrgb8888)
                    let plain = PixelBuffer(width: w, height: h, format: .xrgb8888)
                    Rasterizer().clear(plain.surface, to: backdrop)
                    Rasterizer().fill(shape, paint: paint, on: plain.surface, clip: clip)
                    keeping.clear(kept.surface, to: backdrop, cache: cache)
                    keeping.fill(
                        shape, paint: paint, on: kept.surface, clip: clip, cache: cache,
                        keepCoverage: true)
                    #expect(differingBytes(kept, plain) == 0, "\(paint) through \(clip)")
                }
            }
            #expect(cache.keptCoverage.shapes == 2)
        }
    }

    /// Coverage kept on a small surface does not reach the pixels a larger
    /// one shows: the fill there is plain, and right.
    @Test func keptCoverageIsNotReplayedBeyondItsArea() {
        let r = Rasterizer()
        let cache = RasterCache()
        let shape = Shape.disc(center: .zero, radius: Fixed(20))
        let t = Transform.translation(Fixed(16), Fixed(16))
        let small = PixelBuffer(width: 24, height: 24, format: .xrgb8888)
        let large = PixelBuffer(width: 48, height: 48, format: .xrgb8888)
        let expected = PixelBuffer(width: 48, height: 48, format: .xrgb8888)
        r.fill(
            shape, transform: t, paint: .solid(.white), on: small.surface, cache: cache,
            keepCoverage: true)
        r.fill(
            shape, transform: t, paint: .solid(.white), on: large.surface, cache: cache,
            keepCoverage: true)
        Rasterizer().fill(shape, transform: t, paint: .solid(.white), on: expected.surface)
        #expect(differingBytes(large, expected) == 0)
        #expect(
            r.bounds(of: shape, transform: t, cache: cache)
                == Rasterizer().bounds(of: shape, transform: t))
    }
}

/// How many bytes of two buffers of one size differ.
func differingBytes(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    zip(a.bytes, b.bytes).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
}

/// Pixels of `buffer` whose bytes differ from `before` outside the blocks `marks` marks.
func changedOutsideMarks(_ before: [UInt8], _ buffer: PixelBuffer, _ marks: PaintedBlocks) -> Int {
    let w = buffer.surface.width
    let h = buffer.surface.height
    var marked = Array(repeating: false, count: w * h)
    marks.forEachMarkedRun(in: IntRect(x: 0, y: 0, width: w, height: h)) { y, x, n in
        for i in x..<(x + n) { marked[y * w + i] = true }
    }
    let bpp = buffer.surface.format.bytesPerPixel
    let stride = buffer.surface.stride
    var count = 0
    for y in 0..<h {
        for x in 0..<w where !marked[y * w + x] {
            let at = y * stride + x * bpp
            if (at..<(at + bpp)).contains(where: { before[$0] != buffer.bytes[$0] }) { count += 1 }
        }
    }
    return count
}
