import FBAnimation
import FBRaster
import Testing
import _FBTestSupport

/// The ring driven from outside (a boot's progress): its frames against the
/// independent reference at set values, and a scripted sequence of values
/// eased frame by frame as loaders.md says (towards each new value over
/// 0.3 s with easeOut, from where the ring is when the value comes).
@Suite struct DrivenProgressTests {
    static let values = [0.004, 0.05, 0.4, 0.77, 0.999, 1.0, -0.3, -1.0]

    @Test(arguments: values)
    func ringAtAGivenProgressMatchesTheReference(_ p: Double) {
        checkAgainstReference(FrameCase(loader: .ring, time: 3, progress: p))
        checkAgainstReference(
            FrameCase(
                loader: .ring, time: 7, width: 241, height: 199, rotation: .degrees90,
                format: .rgb565, progress: p))
    }

    /// The eased value at `t` for targets arriving at the given times,
    /// computed from the spec's words with the reference's easing curve.
    static func expected(_ script: [(time: Double, target: Double)], at t: Double) -> Double {
        var from = 0.0
        var target = 0.0
        var start = -1.0
        func value(_ t: Double) -> Double {
            let x = (t - start) / 0.3
            return x >= 1 ? target : from + (target - from) * RefEasing.easeOut.value(max(x, 0))
        }
        for (time, next) in script where time <= t {
            from = value(time)
            target = next
            start = time
        }
        return value(t)
    }

    @Test func aScriptedSequenceEasedFrameByFrame() {
        // Values as a boot sends them: close together (a change mid-move),
        // far apart, one equal to the last, a fill to the end at quit.
        let script: [(time: Double, target: Double)] = [
            (0, 0.1), (0.4, 0.35), (0.5, 0.6), (1.2, 0.6), (1.3, 0.75), (2.0, 1.0),
        ]
        var eased = EasedValue.ringProgress()
        var next = 0
        let renderer = FrameRenderer(kind: .ring, width: 200, height: 200)
        let buffer = PixelBuffer(width: 200, height: 200, format: .xrgb8888)
        var checkedFrames = 0
        for frame in 0...75 {
            let t = Double(frame) / 30
            while next < script.count && script[next].time <= t {
                eased.move(to: script[next].target, at: script[next].time)
                next += 1
            }
            let want = Self.expected(script, at: t)
            #expect(
                abs(eased.value(at: t) - want) < 1e-9, "t \(t): \(eased.value(at: t)) vs \(want)")
            // Every fifth frame as a picture, against the reference at the expected value.
            if frame % 5 == 0 {
                renderer.progress = eased.value(at: t)
                _ = renderer.renderDamage(
                    time: t, into: buffer.surface, age: checkedFrames == 0 ? 0 : 1)
                let ours = RefImage(width: 200, height: 200, rgb: buffer.surface.rgbBytes())
                let reference = ReferenceRenderer.render(
                    RefParams(loader: "ring", width: 200, height: 200, time: t, progress: want))
                let d = compareImages(
                    ours, RefImage(width: 200, height: 200, rgb: reference.rgb8()),
                    region: .loader("ring", width: 200, height: 200, scale: 1, margin: 2),
                    threshold: 16)
                #expect(d.worstMeanAbs < 1 && d.maxAbs <= 48, "t \(t) p \(want): \(d)")
                checkedFrames += 1
            }
        }
        #expect(eased.value(at: 2.31) == 1.0)
        #expect(eased.settlesAt == 2.3)
    }
}

/// A message or a progress step redraws only what it changed, and the
/// damage-only frames are the bytes of full redraws.
@Suite struct SplashDamageTests {
    /// A 40 x 12 px "message": two boxes, as glyphs would be.
    static func message(width: Double = 40) -> MessageLine {
        var path = Path()
        for (x, w) in [(0.0, width / 2 - 2), (width / 2 + 2, width / 2 - 2)] {
            path.move(to: Point(x: Fixed(raw: Int64(x * 65536)), y: Fixed(2)))
            path.line(to: Point(x: Fixed(raw: Int64((x + w) * 65536)), y: Fixed(2)))
            path.line(to: Point(x: Fixed(raw: Int64((x + w) * 65536)), y: Fixed(11)))
            path.line(to: Point(x: Fixed(raw: Int64(x * 65536)), y: Fixed(11)))
            path.close()
        }
        return MessageLine(path: path, width: width, height: 12)
    }

    @Test(arguments: [PixelFormat.xrgb8888, .rgb565])
    func messageAndProgressChangesRedrawOnlyWhatChanged(_ format: PixelFormat) {
        let (w, h) = (320, 240)
        let renderer = FrameRenderer(kind: .ring, width: w, height: h)
        let full = FrameRenderer(kind: .ring, width: w, height: h)
        let buffer = PixelBuffer(width: w, height: h, format: format)
        let reference = PixelBuffer(width: w, height: h, format: format)
        renderer.progress = 0.25
        full.progress = 0.25
        _ = renderer.renderDamage(time: 1, into: buffer.surface, age: 0)
        // The box (before rotation: none here): centred, moved up to end at H - 4.
        func box(_ m: MessageLine) -> IntRect {
            let o = m.origin(pictureWidth: w, height: h, scale: 1)
            return IntRect(
                x: Int(o.x.rounded(.down)), y: Int(o.y.rounded(.down)),
                width: Int(m.width.rounded(.up)) + 1, height: Int(m.height.rounded(.up)) + 1)
        }
        let steps: [(String, (FrameRenderer) -> Void, IntRect)] = [
            ("message appears", { $0.message = Self.message() }, box(Self.message())),
            (
                "message changes", { $0.message = Self.message(width: 60) },
                box(Self.message(width: 60))
            ),
            ("message goes", { $0.message = nil }, box(Self.message(width: 60))),
            // 0.25 -> 0.30: the arc's end moves from 3 o'clock down by 18 degrees.
            (
                "progress step", { $0.progress = 0.30 },
                IntRect(x: 220, y: 100, width: 60, height: 60)
            ),
        ]
        var t = 1.0
        for (name, change, bounds) in steps {
            t += 1.0 / 30
            change(renderer)
            change(full)
            guard let damage = renderer.renderDamage(time: t, into: buffer.surface, age: 1) else {
                Issue.record("\(name): nothing redrawn")
                continue
            }
            for r in damage.rects {
                #expect(
                    r.intersection(bounds) == r,
                    "\(name): damage \(r) outside \(bounds) (\(format))")
            }
            full.render(time: t, into: reference.surface)
            let same = Array(buffer.bytes) == Array(reference.bytes)
            #expect(same, "\(name): not a full redraw's bytes (\(format))")
        }
        // Nothing changed: nothing drawn, and the ring says it stays.
        #expect(renderer.renderDamage(time: t + 0.1, into: buffer.surface, age: 1) == nil)
        #expect(renderer.stillUntil(t + 0.1) == .infinity)
    }

    @Test func messagePlacement() {
        let m = MessageLine(path: Path(), width: 100, height: 20)
        // Room below the loader: the box's top at H/2 + 124 * scale, centred.
        #expect(m.origin(pictureWidth: 800, height: 600, scale: 1) == (350, 424))
        #expect(m.origin(pictureWidth: 801, height: 601, scale: 1) == (350.5, 424.5))
        // No room: moved up to end at H - 4.
        #expect(m.origin(pictureWidth: 320, height: 240, scale: 1) == (110, 216))
        #expect(m.origin(pictureWidth: 800, height: 480, scale: 2) == (350, 456))
        #expect(MessageLine.maximumWidth(pictureWidth: 320) == 304)
    }
}
