// Stride padding and clipping: the kernel's format helpers are tested with a
// destination pitch larger than a row; here every format gets a stride of
// width * bpp + 7, the padding pre-filled with a sentinel, and shapes drawn
// everywhere (over the whole surface, past every side, at negative
// coordinates): padding is never written. With a clip, nothing outside it
// changes, and inside it the bytes are those of the unclipped drawing.

import Foundation
import Testing

@testable import FBRaster

private let sentinel: UInt8 = 0xA5

/// Shapes that cover, cross or miss the edges of a 37 x 23 surface.
private func edgeScene() -> [(Shape, Transform, Paint)] {
    let white = Paint.solid(.white)
    let half = Paint.solid(Color(rgb: 0x33CC99, alpha: 128))
    let gradient = SweepGradient(
        center: Point(-3, 30), start: Angle(turns: 0.8), sweep: AngleSpan(turns: 0.6),
        color: Color(rgb: 0xFF2F92),
        startAlpha: 10, endAlpha: 250)
    var far = Path()  // a triangle with vertices far outside, crossing the surface
    far.move(to: Point(-100_000, -5))
    far.line(to: Point(100_000, 10))
    far.line(to: Point(18, 40_000))
    far.close()
    return [
        // Larger than the surface; partly at negative coordinates; over the bottom right corner.
        (.disc(center: Point(18.3, 11.7), radius: Fixed(1000)), .identity, half),
        (.disc(center: Point(-2.4, -3.1), radius: Fixed(9.6)), .identity, white),
        (.annulus(center: Point(36.6, 22.8), inner: Fixed(3), outer: Fixed(8.2)), .identity, white),
        (
            .arc(
                center: Point(18, 11), radius: Fixed(17), width: Fixed(6), start: Angle(turns: 0.1),
                sweep: AngleSpan(turns: 0.85), cap: .round), .identity, half
        ),
        (
            .roundedRectStroke(
                center: .zero, halfWidth: Fixed(10), halfHeight: Fixed(25), cornerRadius: Fixed(10),
                lineWidth: Fixed(8)),
            Transform(
                scale: ScaleFactor(0.9), rotation: Angle(turns: 0.2), translation: Point(36.5, 2)),
            white
        ),
        (
            .path(heartPath(width: 18)),
            Transform(rotation: Angle(turns: 0.3), translation: Point(-1, 20)), half
        ),
        (
            .sector(
                center: Point(-3, 30), radius: Fixed(40), start: Angle(turns: 0.8),
                sweep: AngleSpan(turns: 0.6)), .identity, .sweep(gradient)
        ),
        (.path(far), .identity, half),
        (.disc(center: Point(-50, 10), radius: Fixed(20)), .identity, white),  // wholly off-surface
    ]
}

@Suite("Stride padding and clipping")
struct StrideAndClipTests {
    @Test("padding bytes are never written, whatever is drawn", arguments: PixelFormat.allCases)
    func padding(format: PixelFormat) {
        let (w, h) = (37, 23)
        let rowBytes = w * format.bytesPerPixel
        let buffer = PixelBuffer(width: w, height: h, format: format, stride: rowBytes + 7)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        for i in 0..<buffer.bytes.count { buffer.bytes[i] = sentinel }
        let r = Rasterizer()
        r.clear(buffer.surface, to: Color(rgb: 0x102030))
        r.clear(
            buffer.surface, to: Color(rgb: 0x405060),
            in: IntRect(x: -5, y: -5, width: 100, height: 100))
        for (shape, transform, paint) in edgeScene() {
            r.fill(shape, transform: transform, paint: paint, on: buffer.surface)
        }
        // Clipped fills whose clip reaches past the surface.
        for (shape, transform, paint) in edgeScene() {
            r.fill(
                shape, transform: transform, paint: paint, on: buffer.surface,
                clip: IntRect(x: 30, y: -4, width: 20, height: 40))
        }
        var written = 0
        for y in 0..<h {
            for i in rowBytes..<(rowBytes + 7)
            where buffer.bytes[y * buffer.surface.stride + i] != sentinel {
                written += 1
                if written < 5 {
                    Issue.record("\(format): padding byte \(i - rowBytes) of row \(y) was written")
                }
            }
        }
        #expect(written == 0)
        // And every pixel byte was written (the clear covered them all).
        var untouched = 0
        for y in 0..<h {
            for i in 0..<rowBytes where buffer.bytes[y * buffer.surface.stride + i] == sentinel {
                untouched += 1
            }
        }
        #expect(
            untouched < rowBytes * h / 20,
            "\(format): \(untouched) pixel bytes still hold the sentinel")
    }

    @Test(
        "a clip: nothing outside changes; inside, the bytes of the unclipped drawing",
        arguments: PixelFormat.allCases)
    func clipRect(format: PixelFormat) {
        let (w, h) = (37, 23)
        let clips = [
            IntRect(x: 5, y: 3, width: 20, height: 11),
            IntRect(x: -10, y: 7, width: 19, height: 40),  // partly outside the surface
            IntRect(x: 36, y: 0, width: 1, height: 23),  // the last column
            IntRect(x: 0, y: 22, width: 37, height: 1),  // the last row
        ]
        for (shape, transform, paint) in edgeScene() {
            let whole = PixelBuffer(
                width: w, height: h, format: format, stride: w * format.bytesPerPixel + 7)
            defer { withExtendedLifetime(whole) {} }  // a Surface does not own its memory
            for i in 0..<whole.bytes.count { whole.bytes[i] = sentinel }
            let r = Rasterizer()
            r.clear(whole.surface, to: Color(rgb: 0x405060))
            let before = Array(whole.bytes)
            r.fill(shape, transform: transform, paint: paint, on: whole.surface)
            let after = Array(whole.bytes)
            for clip in clips {
                let clipped = PixelBuffer(
                    width: w, height: h, format: format, stride: w * format.bytesPerPixel + 7)
                defer { withExtendedLifetime(clipped) {} }  // a Surface does not own its memory
                for i in 0..<clipped.bytes.count { clipped.bytes[i] = before[i] }
                r.fill(shape, transform: transform, paint: paint, on: clipped.surface, clip: clip)
                let bpp = format.bytesPerPixel
                var wrong = 0
                for i in 0..<clipped.bytes.count {
                    let y = i / clipped.surface.stride
                    let x = (i % clipped.surface.stride) / bpp
                    let inClip =
                        x < w && x >= clip.x && x < clip.maxX && y >= clip.y && y < clip.maxY
                    let expected = inClip ? after[i] : before[i]
                    if clipped.bytes[i] != expected { wrong += 1 }
                }
                #expect(wrong == 0, "\(format) \(shape) clip \(clip): \(wrong) bytes differ")
            }
        }
    }

    @Test("clear(in:) paints exactly its rectangle", arguments: PixelFormat.allCases)
    func clearRect(format: PixelFormat) {
        let buffer = PixelBuffer(
            width: 10, height: 8, format: format, stride: 10 * format.bytesPerPixel + 3)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        for i in 0..<buffer.bytes.count { buffer.bytes[i] = sentinel }
        Rasterizer().clear(buffer.surface, to: .white, in: IntRect(x: 2, y: 3, width: 5, height: 4))
        let bpp = format.bytesPerPixel
        for y in 0..<8 {
            for i in 0..<buffer.surface.stride {
                let x = i / bpp
                let inside = i < 10 * bpp && x >= 2 && x < 7 && y >= 3 && y < 7
                let byte = buffer.bytes[y * buffer.surface.stride + i]
                #expect(inside ? byte == 0xFF : byte == sentinel, "(\(x), \(y)) byte \(i % bpp)")
            }
        }
    }

    @Test(
        "a frame redrawn tile by tile with clips equals the frame drawn whole",
        arguments: PixelFormat.allCases)
    func tiles(format: PixelFormat) {
        let (w, h) = (37, 23)
        let whole = PixelBuffer(width: w, height: h, format: format)
        defer { withExtendedLifetime(whole) {} }  // a Surface does not own its memory
        let tiled = PixelBuffer(width: w, height: h, format: format)
        defer { withExtendedLifetime(tiled) {} }  // a Surface does not own its memory
        let r = Rasterizer()
        r.clear(whole.surface, to: Color(rgb: 0x405060))
        for (shape, transform, paint) in edgeScene() {
            r.fill(shape, transform: transform, paint: paint, on: whole.surface)
        }
        // Uneven tiles, so that tile edges fall at every dither phase.
        let xs = [0, 7, 13, 22, 37]
        let ys = [0, 5, 14, 23]
        for j in 0..<(ys.count - 1) {
            for i in 0..<(xs.count - 1) {
                let tile = IntRect(
                    x: xs[i], y: ys[j], width: xs[i + 1] - xs[i], height: ys[j + 1] - ys[j])
                r.clear(tiled.surface, to: Color(rgb: 0x405060), in: tile)
                for (shape, transform, paint) in edgeScene() {
                    r.fill(shape, transform: transform, paint: paint, on: tiled.surface, clip: tile)
                }
            }
        }
        #expect(Array(tiled.bytes) == Array(whole.bytes))
    }
}

@Suite("Converting an 8-bit picture into a format")
struct ConvertTests {
    @Test(
        "convert: 8-bit formats get the same RGB, 16-bit formats the dithered levels; padding and outside untouched",
        arguments: PixelFormat.allCases)
    func convert(format: PixelFormat) {
        let (w, h) = (37, 23)
        let source = PixelBuffer(width: w, height: h, format: .xrgb8888)
        let r = Rasterizer()
        r.clear(source.surface, to: Color(rgb: 0x405060))
        for (shape, transform, paint) in edgeScene() {
            r.fill(shape, transform: transform, paint: paint, on: source.surface)
        }
        let target = PixelBuffer(
            width: w, height: h, format: format, stride: w * format.bytesPerPixel + 7)
        for i in 0..<target.bytes.count { target.bytes[i] = sentinel }
        let rect = IntRect(x: 3, y: -2, width: 40, height: 20)  // past the top and the right
        r.convert(source.surface, into: target.surface, in: rect)
        let bpp = format.bytesPerPixel
        var wrong = 0
        for y in 0..<h {
            for x in 0..<w {
                let at = y * target.surface.stride + x * bpp
                let inside = x >= 3 && y < 18
                if !inside {
                    if target.bytes[at..<(at + bpp)].contains(where: { $0 != sentinel }) {
                        wrong += 1
                    }
                    continue
                }
                let want = source.surface.pixel(x: x, y: y)
                let got = target.surface.pixel(x: x, y: y)
                if bpp > 2 {
                    if got != want { wrong += 1 }
                } else {
                    // Each channel is one of the two levels around its 8-bit value.
                    for (shift, bits) in [(16, 5), (8, 6), (0, 5)] as [(UInt32, Int)] {
                        let v = want >> shift & 0xFF
                        let g = got >> shift & 0xFF
                        let expand = bits == 5 ? expand5 : expand6
                        let lo = (0...UInt32(1 << bits - 1)).last { expand($0) <= v }!
                        if g != expand(lo) && (lo == UInt32(1 << bits - 1) || g != expand(lo + 1)) {
                            wrong += 1
                        }
                    }
                }
            }
            for i in (w * bpp)..<target.surface.stride
            where target.bytes[y * target.surface.stride + i] != sentinel {
                wrong += 1
            }
        }
        #expect(wrong == 0, "\(format): \(wrong) wrong pixels or bytes")
        // A flat colour converts to exactly what clear writes (same dither cells).
        let flat = PixelBuffer(width: 9, height: 6, format: .xrgb8888)
        r.clear(flat.surface, to: Color(rgb: 0x808080))
        let converted = PixelBuffer(width: 9, height: 6, format: format)
        let cleared = PixelBuffer(width: 9, height: 6, format: format)
        r.convert(flat.surface, into: converted.surface, in: flat.surface.bounds)
        r.clear(cleared.surface, to: Color(rgb: 0x808080))
        #expect(Array(converted.bytes) == Array(cleared.bytes))
        withExtendedLifetime([source, target, flat, converted, cleared]) {}
    }
}
