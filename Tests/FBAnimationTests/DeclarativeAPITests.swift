import FBAnimation
import FBRaster
import Testing

/// A loader written in the declarative API by a user, with a bit of
/// everything: a path with quadratic and cubic curves, a capsule, a
/// rounded rectangle, a rectangle's mitred stroke, a trimmed circle, a
/// gradient, opacity, and progress from outside.
struct SampleLoader: Loader {
    var mainColor = Color(rgb: 0x0A84FF)
    let drop = Path { p in
        p.move(to: Point(0, -30))
        p.addQuadCurve(to: Point(24, 10), control: Point(24, -10))
        p.addCurve(to: Point(-24, 10), control1: Point(24, 40), control2: Point(-24, 40))
        p.addLine(to: Point(0, -30))
        p.closeSubpath()
    }

    func body(in context: LoaderContext) -> some LoaderContent {
        let t = context.time
        let pulse = Animation.easeInOut(duration: 0.5).repeatForever()
        Rectangle(width: 100, height: 70).stroke(Color.white.opacity(0.5), lineWidth: 3)
        RoundedRectangle(width: 60, height: 30, cornerRadius: 6).fill(Color(rgb: 0x303030))
        Circle(radius: 45).fill(AngularGradient(colors: [.clear, mainColor]))
            .opacity(0.4)
        Circle(radius: 40).trim(from: 0.1, to: pulse.value(from: 0.2, to: 0.9, at: t))
            .stroke(mainColor, style: StrokeStyle(lineWidth: 5, lineCap: .round))
            .rotationEffect(.degrees(360 * t))
        drop.fill(mainColor).scaleEffect(pulse.value(from: 0.8, to: 1.1, at: t))
        Capsule(width: 8, height: 20).fill(Color.white)
            .offset(.polar(radius: 52, angle: .degrees(90 * t)))
        if let p = context.progress {
            Circle(radius: 50).trim(from: 0, to: p).stroke(Color.white, lineWidth: 2)
        }
    }
}

@Suite struct DeclarativeAPITests {
    func ops<L: Loader>(_ loader: L, _ context: LoaderContext) -> [DrawOp] {
        var ops: [DrawOp] = []
        loader.frame(context, into: &ops)
        return ops
    }

    struct One<C: LoaderContent>: Loader {
        var mainColor = Color.white
        let content: @Sendable () -> C
        func body(in context: LoaderContext) -> C { content() }
    }

    func op<C: LoaderContent>(_ content: @escaping @Sendable () -> C) -> [DrawOp] {
        ops(One(content: content), LoaderContext(time: 0))
    }

    @Test func circlesBecomeDiscsRingsAndArcs() {
        let red = Color(rgb: 0xFF0000)
        #expect(
            op { Circle(radius: 10).fill(red) } == [
                DrawOp(.disc(center: .zero, radius: Fixed(10)), paint: .solid(red))
            ])
        #expect(
            op { Circle(radius: 10).stroke(red, lineWidth: 4) }
                == [
                    DrawOp(
                        .annulus(center: .zero, inner: Fixed(8), outer: Fixed(12)),
                        paint: .solid(red))
                ])
        #expect(
            op { Circle(radius: 10).strokeBorder(red, lineWidth: 4) }
                == [
                    DrawOp(
                        .annulus(center: .zero, inner: Fixed(6), outer: Fixed(10)),
                        paint: .solid(red))
                ])
        // A turn goes into the arc's start, not the transform (exact, and not kept).
        #expect(
            op {
                Circle(radius: 10).trim(from: 0.25, to: 0.5)
                    .stroke(red, style: StrokeStyle(lineWidth: 2, lineCap: .round))
                    .rotationEffect(.degrees(90))
            }
                == [
                    DrawOp(
                        .arc(
                            center: .zero, radius: Fixed(10), width: Fixed(2),
                            start: .halfTurn, sweep: AngleSpan(raw: 1 << 30), cap: .round),
                        paint: .solid(red))
                ])
        #expect(op { Circle(radius: 10).trim(from: 0.3, to: 0.3).stroke(red) }.isEmpty)
        #expect(op { Circle(radius: 10).fill(Color.clear) }.isEmpty)
    }

    @Test func modifiersComposeOutsideIn() {
        let placed = op {
            Capsule(width: 20, height: 50).stroke(Color.white, lineWidth: 8)
                .offset(x: 40, y: 70).scaleEffect(0.5).rotationEffect(.degrees(30))
                .opacity(0.5)
        }
        let expected = Transform.rotation(Angle(wholeDegrees: 30))
            .concatenating(.scale(ScaleFactor(raw: 1 << 23)))
            .concatenating(.translation(Fixed(40), Fixed(70)))
        #expect(
            placed == [
                DrawOp(
                    .roundedRectStroke(
                        center: .zero, halfWidth: Fixed(10), halfHeight: Fixed(25),
                        cornerRadius: Fixed(10), lineWidth: Fixed(8)),
                    transform: expected, paint: .solid(Color.white.withAlpha(128)), repeats: true)
            ])
    }

    @Test func declarationOrderIsDrawingOrder() {
        let drawn = ops(SampleLoader(), LoaderContext(time: 0.3, progress: 0.5))
        #expect(drawn.count == 7)
        guard drawn.count == 7 else { return }
        if case .path = drawn[0].shape {} else { Issue.record("the rectangle's stroke first") }
        if case .arc = drawn[6].shape {} else { Issue.record("the progress arc last") }
        #expect(ops(SampleLoader(), LoaderContext(time: 0.3)).count == 6)
    }

    @Test func aRadarGradientFillsOnlyItsRamp() {
        let green = Color(rgb: 0x34C759)
        let drawn = op {
            Circle(radius: 100).fill(AngularGradient(colors: [.clear, .clear, green]))
        }
        let gradient = SweepGradient(
            center: .zero, start: .halfTurn, sweep: .halfTurn, color: green, startAlpha: 0,
            endAlpha: 255)
        #expect(
            drawn == [
                DrawOp(
                    .sector(center: .zero, radius: Fixed(100), start: .halfTurn, sweep: .halfTurn),
                    paint: .sweep(gradient))
            ])
    }

    @Test func aQuadraticCurveIsItsExactCubic() {
        let path = Path { p in
            p.move(to: Point(0, 0))
            p.addQuadCurve(to: Point(30, 0), control: Point(15, 30))
        }
        #expect(path.elements.last == .cubic(Point(10, 20), Point(20, 20), Point(30, 0)))
    }

    @Test func colorsFadeAndMix() {
        #expect(Color(rgb: 0x102030).opacity(0.5) == Color(rgb: 0x102030, alpha: 128))
        #expect(
            Color(rgb: 0x000000).mix(with: Color(rgb: 0xFF8000), by: 0.5) == Color(rgb: 0x804000))
        #expect(Color(red: 1, green: 0.5, blue: 0) == Color(rgb: 0xFF8000))
    }

    /// Damage frames of a loader nobody at fbanim wrote equal full redraws:
    /// the renderer's savings are generic.
    @Test(arguments: [PixelFormat.xrgb8888, .rgb565])
    func damageFramesOfAUserLoaderEqualFullRedraws(format: PixelFormat) {
        let (w, h) = (140, 120)
        let renderer = FrameRenderer(SampleLoader(), width: w, height: h)
        let full = FrameRenderer(SampleLoader(), width: w, height: h)
        let buffer = PixelBuffer(width: w, height: h, format: format)
        let reference = PixelBuffer(width: w, height: h, format: format)
        var mismatches = 0
        for frame in 0..<60 {
            let t = Double(frame) / 30
            renderer.progress = frame > 30 ? Double(frame - 30) / 30 : nil
            full.progress = renderer.progress
            _ = renderer.renderDamage(time: t, into: buffer.surface, age: frame == 0 ? 0 : 1)
            full.render(time: t, into: reference.surface)
            if buffer.rgbBytes() != reference.rgbBytes() { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(renderer.keptCoverage.shapes > 0, "moving shapes are kept")
    }
}
