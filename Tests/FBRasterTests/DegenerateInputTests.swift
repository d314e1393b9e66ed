// Degenerate input never traps and draws nothing: zero or negative sizes,
// zero sweeps, clear colours, shapes wholly off the surface, empty clips.
// Huge shapes (a radius of a million pixels) must not overflow: they are
// drawn in a child process (an exit test), so a trap shows as a failed test
// with the runtime's message instead of ending the whole run.

import Foundation
import Testing

@testable import FBRaster

/// Every degenerate shape with its paint, each of which must leave the surface untouched.
private func degenerateCases() -> [(String, Shape, Transform, Paint)] {
    let white = Paint.solid(.white)
    let c = Point(8.5, 8.5)
    var cases: [(String, Shape, Transform, Paint)] = []
    for r in [0.0, -5, 1.0 / 65536] {
        // 1/65536 px: a polygon of fewer than three distinct vertices.
        cases.append(("disc r \(r)", .disc(center: c, radius: Fixed(r)), .identity, white))
        cases.append(
            (
                "sector r \(r)",
                .sector(center: c, radius: Fixed(r), start: .zero, sweep: .halfTurn), .identity,
                white
            ))
    }
    for r in [0.0, -5] {
        cases.append(
            (
                "arc r \(r)",
                .arc(
                    center: c, radius: Fixed(r), width: Fixed(3), start: .zero, sweep: .halfTurn,
                    cap: .round), .identity, white
            ))
    }
    for (i, o) in [(5.0, 5.0), (6, 5), (0, 0), (-3, -1), (-1, 0)] {
        cases.append(
            (
                "annulus \(i)...\(o)", .annulus(center: c, inner: Fixed(i), outer: Fixed(o)),
                .identity, white
            ))
    }
    for w in [0.0, -2] {
        for cap in [LineCap.butt, .round] {
            cases.append(
                (
                    "arc width \(w) \(cap)",
                    .arc(
                        center: c, radius: Fixed(5), width: Fixed(w), start: .zero,
                        sweep: .halfTurn, cap: cap), .identity, white
                ))
        }
        cases.append(
            (
                "rounded rect line \(w)",
                .roundedRectStroke(
                    center: c, halfWidth: Fixed(4), halfHeight: Fixed(6), cornerRadius: Fixed(2),
                    lineWidth: Fixed(w)), .identity, white
            ))
    }
    cases.append(
        (
            "rounded rect negative size",
            .roundedRectStroke(
                center: c, halfWidth: Fixed(-4), halfHeight: Fixed(6), cornerRadius: Fixed(2),
                lineWidth: Fixed(2)), .identity, white
        ))
    for cap in [LineCap.butt, .round] {
        cases.append(
            (
                "arc sweep 0 \(cap)",
                .arc(
                    center: c, radius: Fixed(5), width: Fixed(3), start: Angle(turns: 0.3),
                    sweep: .zero, cap: cap), .identity, white
            ))
    }
    cases.append(
        (
            "sector sweep 0",
            .sector(center: c, radius: Fixed(5), start: Angle(turns: 0.3), sweep: .zero), .identity,
            white
        ))
    // Paths that enclose nothing.
    cases.append(("empty path", .path(Path()), .identity, white))
    var p = Path()
    p.move(to: c)
    cases.append(("move only", .path(p), .identity, white))
    p.line(to: Point(12, 3))
    cases.append(("one line", .path(p), .identity, white))
    p.line(to: Point(15.5, -2.5))  // on the same line: no area
    p.close()
    cases.append(("collinear triangle", .path(p), .identity, white))
    var closes = Path()
    closes.close()
    closes.close()
    cases.append(("close only", .path(closes), .identity, white))
    // Clear paint.
    let disc = Shape.disc(center: c, radius: Fixed(6))
    cases.append(("alpha 0", disc, .identity, .solid(Color(rgb: 0xFFFFFF, alpha: 0))))
    cases.append(
        (
            "gradient with clear ends", disc, .identity,
            .sweep(
                SweepGradient(
                    center: c, start: .zero, sweep: .halfTurn, color: .white, startAlpha: 0,
                    endAlpha: 0))
        ))
    cases.append(
        (
            "gradient of a clear colour", disc, .identity,
            .sweep(
                SweepGradient(
                    center: c, start: .zero, sweep: .halfTurn,
                    color: Color(rgb: 0xFFFFFF, alpha: 0), startAlpha: 255, endAlpha: 255))
        ))
    cases.append(
        (
            "gradient of zero sweep", disc, .identity,
            .sweep(
                SweepGradient(
                    center: c, start: .zero, sweep: .zero, color: Color(rgb: 0xFFFFFF, alpha: 0),
                    startAlpha: 255, endAlpha: 255))
        ))
    // Wholly off the surface, on every side and far away.
    for (x, y) in [(-20.0, 8.0), (40, 8), (8, -20), (8, 40), (-1e5, -1e5), (3e5, 2e5)] {
        cases.append(
            ("disc at \(x), \(y)", .disc(center: Point(x, y), radius: Fixed(10)), .identity, white))
        cases.append(
            (
                "arc at \(x), \(y)",
                .arc(
                    center: Point(x, y), radius: Fixed(10), width: Fixed(4), start: .zero,
                    sweep: AngleSpan(turns: 0.99), cap: .round), .identity, white
            ))
        cases.append(
            ("heart at \(x), \(y)", .path(heartPath(width: 20, dx: x, dy: y)), .identity, white))
    }
    cases.append(
        (
            "off-surface through a transform", disc,
            Transform(
                scale: ScaleFactor(3), rotation: Angle(turns: 0.5), translation: Point(-40, -40)),
            white
        ))
    // A shape that surrounds the surface without covering any of it: a ring whose hole holds it.
    cases.append(
        (
            "ring around the surface", .annulus(center: c, inner: Fixed(30), outer: Fixed(40)),
            .identity, white
        ))
    return cases
}

@Suite("Degenerate input")
struct DegenerateInputTests {
    @Test(
        "degenerate shapes, clear paints and off-surface shapes draw nothing",
        arguments: PixelFormat.allCases)
    func drawsNothing(format: PixelFormat) {
        let buffer = PixelBuffer(
            width: 17, height: 17, format: format, stride: 17 * format.bytesPerPixel + 3)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        for i in 0..<buffer.bytes.count {
            buffer.bytes[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11)
        }
        let before = Array(buffer.bytes)
        let r = Rasterizer()
        for (name, shape, transform, paint) in degenerateCases() {
            r.fill(shape, transform: transform, paint: paint, on: buffer.surface)
            let changed = zip(buffer.bytes, before).filter { $0 != $1 }.count
            #expect(changed == 0, "\(format): \(name) changed \(changed) bytes")
            for i in 0..<before.count { buffer.bytes[i] = before[i] }
        }
    }

    @Test("empty and off-surface clips draw nothing")
    func emptyClips() {
        let buffer = PixelBuffer(width: 17, height: 17, format: .xrgb8888)
        defer { withExtendedLifetime(buffer) {} }  // a Surface does not own its memory
        let before = Array(buffer.bytes)
        let r = Rasterizer()
        let disc = Shape.disc(center: Point(8, 8), radius: Fixed(100))
        for clip in [
            IntRect(x: 3, y: 3, width: 0, height: 5), IntRect(x: 3, y: 3, width: 5, height: -1),
            IntRect(x: -10, y: 0, width: 10, height: 17), IntRect(x: 17, y: 0, width: 5, height: 5),
            IntRect(x: 0, y: 17, width: 17, height: 3),
        ] {
            r.fill(disc, paint: .solid(.white), on: buffer.surface, clip: clip)
            r.clear(buffer.surface, to: .white, in: clip)
        }
        #expect(Array(buffer.bytes) == before)
    }

    /// The huge shapes by name, and the pixels each must give on a 16 x 16
    /// surface (`nil`: a full fill).
    static let hugeCases = [
        "disc", "disc of radius 1e7", "disc scaled by 64", "sector", "annulus",
        "arc with round caps",
        "rounded rect stroke", "edge of a disc of radius 1e4", "edge of a disc of radius 1e6",
        "sweep gradient on a huge sector", "heart of width 2e6",
    ]

    /// Draws the huge shape `name`; returns what went wrong (runs in a child process).
    static func hugeShapeProblems(_ name: String) -> [String] {
        let r = Rasterizer()
        let white = Paint.solid(.white)
        let million = Fixed(1_000_000)
        func coverage(_ shape: Shape, _ t: Transform = .identity, paint: Paint = white) -> [Int] {
            let buffer = PixelBuffer(width: 16, height: 16, format: .xrgb8888)
            return withExtendedLifetime(buffer) {
                r.fill(shape, transform: t, paint: paint, on: buffer.surface)
                return readBlueChannel(buffer.surface)
            }
        }
        func full(_ got: [Int]) -> [String] {
            got.allSatisfy { $0 == 255 } ? [] : ["\(name): not a full fill, min \(got.min()!)"]
        }
        switch name {
        case "disc": return full(coverage(.disc(center: Point(8, 8), radius: million)))
        case "disc of radius 1e7":
            return full(coverage(.disc(center: Point(8, 8), radius: Fixed(10_000_000))))
        case "disc scaled by 64":
            return full(
                coverage(
                    .disc(center: .zero, radius: Fixed(1_000_000 / 64)),
                    Transform(
                        scale: ScaleFactor(64), rotation: Angle(turns: 0.1),
                        translation: Point(8, 8))))
        case "sector":
            // Centred half its radius to the left: the slice of +-36 degrees covers the surface.
            return full(
                coverage(
                    .sector(
                        center: Point(8 - 500_000, 8), radius: million, start: Angle(turns: 0.9),
                        sweep: AngleSpan(turns: 0.2))))
        case "annulus":
            return full(
                coverage(
                    .annulus(
                        center: Point(8, 1_000_008), inner: Fixed(999_900), outer: Fixed(1_000_100))
                ))
        case "arc with round caps":
            return full(
                coverage(
                    .arc(
                        center: Point(8, 1_000_008), radius: million, width: Fixed(400),
                        start: Angle(turns: 0.7),
                        sweep: AngleSpan(turns: 0.1), cap: .round)))
        case "rounded rect stroke":
            return full(
                coverage(
                    .roundedRectStroke(
                        center: Point(8, 8), halfWidth: million, halfHeight: million,
                        cornerRadius: Fixed(500_000), lineWidth: Fixed(2_000_100))))
        case "edge of a disc of radius 1e4", "edge of a disc of radius 1e6":
            // The edge crosses the surface at x = 8.5, straight to 1/3000 px:
            // column 8 is half covered. sin and cos are good to 3e-7 (ROUNDING.md),
            // so the radius is good to 3e-7 R px: 0.003 px (0.8/255) at 1e4 px,
            // 0.3 px (77/255) at 1e6 px; plus 2/255 for the polygon and rounding.
            let radius = name.hasSuffix("1e4") ? 10_000.0 : 1_000_000.0
            let tolerance = Int((2 + 3e-7 * radius * 255).rounded(.up))
            let edge = coverage(.disc(center: Point(radius + 8.5, 8), radius: Fixed(radius)))
            var problems: [String] = []
            for y in 0..<16 {
                for x in 0..<16 {
                    let expected = x < 8 ? 0 : x > 8 ? 255 : 128
                    if abs(edge[y * 16 + x] - expected) > tolerance {
                        problems.append(
                            "\(name) at (\(x), \(y)): \(edge[y * 16 + x]), expected \(expected) +- \(tolerance)"
                        )
                    }
                }
            }
            return problems
        case "sweep gradient on a huge sector":
            let g = SweepGradient(
                center: Point(8, 8), start: .zero, sweep: .halfTurn, color: .white, startAlpha: 255,
                endAlpha: 255)
            let swept = coverage(
                .sector(center: Point(8, 8), radius: million, start: .zero, sweep: .halfTurn),
                paint: .sweep(g))
            return swept[15 * 16 + 8] == 255 && swept[0] == 0
                ? [] : ["\(name): \(swept[15 * 16 + 8]), \(swept[0])"]
        case "heart of width 2e6":
            // Cubics a million pixels long: the surface sits inside, near the heart's centre.
            return full(coverage(.path(heartPath(width: 2_000_000, dx: 8, dy: 8))))
        default: return ["unknown case \(name)"]
        }
    }

    @Test(
        "huge shapes (radius 1e6 px) do not overflow and fill what they cover", arguments: hugeCases
    )
    func hugeShapes(name: String) async {
        // In a child process: a trap (arithmetic overflow) fails this case only.
        await #expect(processExitsWith: .success, "\(name) trapped or drew wrongly") { [name] in
            let problems = DegenerateInputTests.hugeShapeProblems(name)
            if !problems.isEmpty {
                FileHandle.standardError.write(problems.joined(separator: "\n").data(using: .utf8)!)
                exit(1)
            }
        }
    }
}
