import FBAnimation
import FBRaster
import Testing
import _FBTestSupport

/// Damage-only frames into buffers of any age a swap chain gives: two or
/// three buffers taken in any order, and now and then a buffer whose
/// contents were lost (age 0, filled with garbage). Every frame must be the
/// bytes of a full redraw: the damage of the frames a buffer missed, and the
/// blocks where each frame differs from the still picture, are kept right.
@Suite struct BufferAgeTests {
    @Test(arguments: LoaderKind.allCases)
    func anyBufferAgeGivesFullRedraws(kind: LoaderKind) {
        var rng = SeededRandom(seed: 0xA6E + UInt64(kind.rawValue.count))
        // A small frame, and one whose loader crosses a 64-block word of
        // the blocks maps (x = 256), over a background that is not black.
        let cases: [(PixelFormat, Int, Int, LoaderStyle)] = [
            (.rgb565, 141, 117, LoaderStyle(scale: 0.55)),
            (.xrgb8888, 141, 117, LoaderStyle(scale: 0.55)),
            (.rgb565, 333, 241, LoaderStyle(background: Color(rgb: 0x203040))),
            (.xrgb8888, 333, 241, LoaderStyle(background: Color(rgb: 0x203040))),
        ]
        for (format, w, h, style) in cases {
            let renderer = FrameRenderer(kind: kind, width: w, height: h, style: style)
            let full = FrameRenderer(kind: kind, width: w, height: h, style: style)
            let count = Int.random(in: 2...3, using: &rng)
            let buffers = (0..<count).map { _ in PixelBuffer(width: w, height: h, format: format) }
            var shownAt = [Int](repeating: -1, count: count)
            let reference = PixelBuffer(width: w, height: h, format: format)
            var presents = 0
            var mismatches = 0
            // 30 fps over 4 s, the spinner's steady cycle included.
            for frame in 0..<120 {
                let t = Double(frame) / 30
                let b = Int.random(in: 0..<count, using: &rng)
                // Age 1: the buffer holds the frame presented last.
                var age = shownAt[b] < 0 ? 0 : presents - shownAt[b] + 1
                if age > 0 && Int.random(in: 0..<25, using: &rng) == 0 {
                    // Lost: garbage, and the display says so.
                    for i in 0..<buffers[b].bytes.count {
                        buffers[b].bytes[i] = UInt8.random(in: 0...255, using: &rng)
                    }
                    age = 0
                }
                guard
                    renderer.renderDamage(time: t, into: buffers[b].surface, age: age) != nil
                else { continue }
                presents += 1
                shownAt[b] = presents
                full.render(time: t, into: reference.surface)
                if Array(buffers[b].bytes) != Array(reference.bytes) { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(kind) \(format): \(mismatches) frames differ")
        }
    }
}
