import FBAnimation
import FBRaster
import Testing
import _FBTestSupport

/// The test pattern's pixels (boot.md, Commands): the bars' colours in
/// order in every pixel format, which edge the arrow points to in each
/// rotation, the moving bar's place at t, and damage that is the bar's old
/// and new rectangles. Without text (FBText is not this module's): the
/// CLI's tests check the labelled pictures.
@Suite struct TestPatternTests {
    /// A renderer of the pattern on a `w` x `h` framebuffer turned `rotation`.
    func renderer(_ w: Int, _ h: Int, _ rotation: Rotation) -> FrameRenderer {
        let (pw, ph) = rotation.isQuarterTurn ? (h, w) : (w, h)
        let pattern = TestPattern(width: pw, height: ph, top: nil, barLabels: [], info: [])
        return FrameRenderer(
            loader: pattern, width: w, height: h, style: LoaderStyle(rotation: rotation))
    }

    /// A frame's pixels as 8-bit RGB, read once.
    struct RGB {
        let bytes: [UInt8]
        let width: Int
        init(_ buffer: PixelBuffer) {
            bytes = buffer.surface.rgbBytes()
            width = buffer.surface.width
        }
        subscript(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let i = (y * width + x) * 3
            return (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]))
        }
    }

    func pixel(_ rgb: RGB, _ x: Int, _ y: Int) -> (Int, Int, Int) { rgb[x, y] }

    /// Where a point of the picture (fractions of its width and height) lands in the framebuffer.
    func place(_ fx: Double, _ fy: Double, _ w: Int, _ h: Int, _ rotation: Rotation) -> (Int, Int) {
        let (x, y): (Double, Double)
        switch rotation {
        case .degrees0: (x, y) = (fx, fy)
        case .degrees90: (x, y) = (1 - fy, fx)
        case .degrees180: (x, y) = (1 - fx, 1 - fy)
        case .degrees270: (x, y) = (fy, 1 - fx)
        }
        return (Int(x * Double(w)), Int(y * Double(h)))
    }

    /// Red, green, blue, white from the picture's left in every format and
    /// rotation: a format whose channels were swapped would show B G R W.
    @Test(arguments: PixelFormat.allCases)
    func barsAreRedGreenBlueWhiteFromTheLeft(format: PixelFormat) {
        let want = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        for rotation in Rotation.allCases {
            let buffer = RGB(renderFrame(renderer(240, 160, rotation), format: format, time: 0))
            for (i, colour) in want.enumerated() {
                let (x, y) = place((Double(i) + 0.5) / 4, 0.5, 240, 160, rotation)
                #expect(pixel(buffer, x, y) == colour, "\(format) \(rotation) bar \(i)")
            }
            // Black around: above the bars and beside the moving bar.
            let (x, y) = place(0.9, 0.2, 240, 160, rotation)
            #expect(pixel(buffer, x, y) == (0, 0, 0), "\(format) \(rotation)")
        }
    }

    /// The arrow is the only white outside the bars: where it lies and
    /// which way its head is say which edge is the picture's top.
    @Test(arguments: Rotation.allCases)
    func theArrowPointsToThePicturesTop(rotation: Rotation) {
        let (w, h) = (300, 180)
        let buffer = RGB(renderFrame(renderer(w, h, rotation), format: .xrgb8888, time: 0))
        var xs: [Int] = []
        var ys: [Int] = []
        for y in 0..<h {
            for x in 0..<w {
                // White, outside the middle third of the picture (the bars).
                let inBars =
                    rotation.isQuarterTurn
                    ? (x >= w / 3 && x < 2 * w / 3) : (y >= h / 3 && y < 2 * h / 3)
                if !inBars, pixel(buffer, x, y) == (255, 255, 255) {
                    xs.append(x)
                    ys.append(y)
                }
            }
        }
        #expect(xs.count > 50, "\(rotation): the arrow is drawn")
        let edge: (Bool, String)
        switch rotation {
        case .degrees0: edge = (ys.allSatisfy { $0 < h / 3 }, "top")
        case .degrees90: edge = (xs.allSatisfy { $0 >= 2 * w / 3 }, "right")
        case .degrees180: edge = (ys.allSatisfy { $0 >= 2 * h / 3 }, "bottom")
        case .degrees270: edge = (xs.allSatisfy { $0 < w / 3 }, "left")
        }
        #expect(edge.0, "\(rotation): the arrow is not at the \(edge.1) edge")
        // The head (wide) is nearer the edge than the shaft (narrow): the
        // widest cross-section lies in the half of the arrow toward the edge.
        let along = rotation.isQuarterTurn ? xs : ys
        let across = rotation.isQuarterTurn ? ys : xs
        var widths: [Int: Set<Int>] = [:]
        for (a, c) in zip(along, across) { widths[a, default: []].insert(c) }
        let widest = widths.max { $0.value.count < $1.value.count }!.key
        let middle = (along.min()! + along.max()!) / 2
        let towardEdge =
            rotation == .degrees0 || rotation == .degrees270 ? widest < middle : widest > middle
        #expect(towardEdge, "\(rotation): the arrow's head is at \(widest), its middle \(middle)")
    }

    /// The yellow bar's left edge is at W * (t mod 1), whole pixels, W/16 wide.
    @Test(arguments: [(0.0, 0), (0.25, 80), (0.3, 96), (1.3, 96), (0.999, 319)])
    func barMovesOneWidthASecond(t: Double, x: Int) {
        #expect(TestPattern.barX(width: 320, at: t) == x)
        let buffer = RGB(renderFrame(renderer(320, 240, .degrees0), format: .rgb565, time: t))
        let y = 200
        #expect(pixel(buffer, x, y) == (255, 255, 0), "t \(t)")
        if x + 19 < 320 { #expect(pixel(buffer, x + 19, y) == (255, 255, 0)) }
        if x + 20 < 320 { #expect(pixel(buffer, x + 20, y) == (0, 0, 0)) }
        if x > 0 { #expect(pixel(buffer, x - 1, y) == (0, 0, 0)) }
        #expect(pixel(buffer, x, 150) != (255, 255, 0), "the bar stays in the bottom third")
    }

    /// After the first frame only the bar changes: the damage is its old and
    /// new rectangles, and the pixels are a full redraw's.
    @Test(arguments: [PixelFormat.xrgb8888, .rgb565], [1, 2])
    func damageIsTheBarsOldAndNewRectangles(format: PixelFormat, age: Int) throws {
        let (w, h) = (320, 240)
        let r = renderer(w, h, .degrees0)
        let full = renderer(w, h, .degrees0)
        let buffers = (0..<age).map { _ in PixelBuffer(width: w, height: h, format: format) }
        let reference = PixelBuffer(width: w, height: h, format: format)
        var xs: [Int] = []
        for frame in 0..<12 {
            let t = 0.25 + Double(frame) / 20
            let buffer = buffers[frame % age]
            let damage = try #require(
                r.renderDamage(time: t, into: buffer.surface, age: frame < age ? 0 : age))
            xs.append(TestPattern.barX(width: w, at: t))
            full.render(time: t, into: reference.surface)
            #expect(Array(buffer.bytes) == Array(reference.bytes), "frame \(frame)")
            guard frame >= age else { continue }
            // The bars of the frames this buffer missed and of this one.
            let bars = xs.suffix(age + 1).map { IntRect(x: $0, y: 160, width: 20, height: 80) }
            let area = damage.rects.reduce(0) { $0 + $1.width * $1.height }
            for rect in damage.rects {
                #expect(
                    bars.contains { !$0.intersection(rect).isEmpty } && rect.y >= 159,
                    "frame \(frame): \(rect) is not a bar's")
            }
            // Rectangles may overlap (age 1: each changed shape's own).
            for bar in bars {
                var covered = 0
                for y in bar.y..<bar.maxY {
                    for x in bar.x..<bar.maxX
                    where damage.rects.contains(where: {
                        x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY
                    }) {
                        covered += 1
                    }
                }
                #expect(covered == bar.width * bar.height, "frame \(frame): \(bar) not redrawn")
            }
            #expect(area <= bars.count * 22 * 82, "frame \(frame): \(damage.rects)")
        }
    }
}
