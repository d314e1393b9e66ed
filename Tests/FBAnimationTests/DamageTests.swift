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
}
