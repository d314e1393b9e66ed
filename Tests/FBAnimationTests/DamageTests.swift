import FBAnimation
import FBRaster
import Testing

/// A damage-only frame must give the very bytes of a full redraw, for every
/// loader and format, over a cycle, with buffers of age 1 (a shadow) and 2
/// (double buffering).
@Suite struct DamageTests {
    static let formats: [PixelFormat] = PixelFormat.allCases

    @Test(arguments: LoaderKind.allCases, [1, 2])
    func damageFramesEqualFullRedraws(kind: LoaderKind, age: Int) {
        for format in DamageTests.formats {
            let (w, h) = (150, 130)
            let style = LoaderStyle(scale: 0.6)
            let renderer = FrameRenderer(kind: kind, width: w, height: h, style: style)
            let full = FrameRenderer(kind: kind, width: w, height: h, style: style)
            let buffers = (0..<age).map { _ in PixelBuffer(width: w, height: h, format: format) }
            let reference = PixelBuffer(width: w, height: h, format: format)
            // 30 fps over the first 3.4 s: the ring's delay, a radar turn, spinner ticks.
            var mismatches = 0
            var unchanged = 0
            var presents = 0
            for frame in 0..<102 {
                let t = Double(frame) / 30
                // As a display does: the next buffer only after a present;
                // a buffer not yet shown has unknown contents (age 0).
                let buffer = buffers[presents % age]
                let damage = renderer.renderDamage(
                    time: t, into: buffer.surface, age: presents < age ? 0 : age)
                if damage == nil {
                    unchanged += 1
                    continue
                }
                presents += 1
                full.render(time: t, into: reference.surface)
                if Array(buffer.bytes) != Array(reference.bytes) { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(kind) \(format) age \(age): \(mismatches) frames differ")
            if kind == .ring { #expect(unchanged > 0, "the ring is still before its 0.5 s delay") }
        }
    }

    /// Turned a quarter, half or three quarters (`--rotate`): a shape turned
    /// half a turn or more is drawn as a reflection when kept (`HalfTurn`),
    /// and shapes that stay put (an orbit's track) are kept from their
    /// second frame on, so damage frames must match full redraws there too.
    @Test(arguments: LoaderKind.allCases, [Rotation.degrees90, .degrees180, .degrees270])
    func turnedDamageFramesEqualFullRedraws(kind: LoaderKind, rotation: Rotation) {
        let (w, h) = (150, 130)
        let style = LoaderStyle(scale: 0.6, rotation: rotation)
        let renderer = FrameRenderer(kind: kind, width: w, height: h, style: style)
        let full = FrameRenderer(kind: kind, width: w, height: h, style: style)
        let buffer = PixelBuffer(width: w, height: h, format: .xrgb8888)
        let reference = PixelBuffer(width: w, height: h, format: .xrgb8888)
        var mismatches = 0
        for frame in 0..<102 {
            let t = Double(frame) / 30
            guard
                renderer.renderDamage(time: t, into: buffer.surface, age: frame == 0 ? 0 : 1) != nil
            else { continue }
            full.render(time: t, into: reference.surface)
            if Array(buffer.bytes) != Array(reference.bytes) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(kind) \(rotation): \(mismatches) frames differ")
    }
}

/// For a buffer of age 1 (a shadow copied to the screen by damage), the
/// rectangles returned are each changed shape's own: the screen gets every
/// pixel that changed by copying only them, and a spinner's leaves around
/// its empty middle copy far less than their merged box.
@Suite struct PresentedDamageTests {
    @Test(arguments: LoaderKind.allCases, [PixelFormat.xrgb8888, .rgb565])
    func copyingThePresentedRectanglesGivesTheFrame(kind: LoaderKind, format: PixelFormat) {
        let (w, h) = (320, 240)
        let renderer = FrameRenderer(kind: kind, width: w, height: h)
        let full = FrameRenderer(kind: kind, width: w, height: h)
        let shadow = PixelBuffer(width: w, height: h, format: format)
        let screen = PixelBuffer(width: w, height: h, format: format)
        let reference = PixelBuffer(width: w, height: h, format: format)
        let bpp = format.bytesPerPixel
        var mismatches = 0
        var (copied, boxes) = (0, 0)
        for frame in 0..<120 {
            let t = Double(frame) / 30
            guard
                let damage = renderer.renderDamage(
                    time: t, into: shadow.surface, age: frame == 0 ? 0 : 1)
            else { continue }
            var box = IntRect(x: 0, y: 0, width: 0, height: 0)
            for r in damage.rects {
                box = box.union(r)
                copied += r.width * r.height
                for y in r.y..<r.maxY {
                    let offset = y * shadow.surface.stride + r.x * bpp
                    (screen.surface.base + offset).copyMemory(
                        from: shadow.surface.base + offset, byteCount: r.width * bpp)
                }
            }
            // Counted once every leaf moves (after the first 1.8 s).
            if frame < 60 { copied = 0 } else { boxes += box.width * box.height }
            full.render(time: t, into: reference.surface)
            if Array(screen.bytes) != Array(reference.bytes) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(kind) \(format): \(mismatches) frames differ on the screen")
        if kind == .spinner {
            // Measured: about 60 % (eleven leaves in rectangles of their own).
            #expect(copied * 4 < boxes * 3, "spinner: copied \(copied) of boxes \(boxes)")
        }
    }
}

/// A disc that stays on screen and one that moves far off it.
struct OffScreenMover: Loader {
    var mainColor = Color.white
    func body(in context: LoaderContext) -> some LoaderContent {
        Circle(radius: 10).fill(mainColor)
        Circle(radius: 10).fill(mainColor).offset(x: 500 + 40 * context.time, y: 0)
    }
}

@Suite struct OffScreenDamageTests {
    /// Changes wholly off the screen are no change: nothing to draw or
    /// present (the ring at 160x120, whose arc runs past the edges, showed
    /// frames that changed no pixel).
    @Test func changesOffTheScreenPresentNothing() {
        let renderer = FrameRenderer(OffScreenMover(), width: 64, height: 48)
        let buffer = PixelBuffer(width: 64, height: 48, format: .xrgb8888)
        #expect(renderer.renderDamage(time: 0, into: buffer.surface, age: 0) != nil)
        for frame in 1...10 {
            let damage = renderer.renderDamage(
                time: Double(frame) / 30, into: buffer.surface, age: 1)
            #expect(damage == nil, "frame \(frame): \(damage?.rects ?? [])")
        }
    }

    /// Clipping keeps what lies on the screen and drops the rest.
    @Test func clipKeepsOnlyTheScreen() {
        var list = DamageList()
        list.add(IntRect(x: -10, y: -10, width: 20, height: 20))
        list.add(IntRect(x: 200, y: 0, width: 10, height: 10))
        list.clip(to: IntRect(x: 0, y: 0, width: 64, height: 48))
        #expect(list.rects == [IntRect(x: 0, y: 0, width: 10, height: 10)])
    }
}
