import Foundation
import Testing
import _FBTestSupport

// The reference renderer's anti-aliasing against plain brute force (dense
// grids of point samples), on edge pixels of every kind of shape it draws
// and every rotation. Measured worst differences (printed) are about 1e-3 of
// a pixel, the brute force's own resolution.

/// The reference's exact-along-sub-lines coverage against plain brute force
/// (a 96x96 grid of point samples, good to about 1/200 of a pixel), on
/// random edge pixels of random shapes of every kind it draws, in every
/// rotation. A missed boundary crossing would be off by 0.05 or more.
@Test func referenceCoverageAgreesWithBruteForce() {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random(_ lo: Double, _ hi: Double) -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return lo + (hi - lo) * Double(seed >> 11) / Double(1 << 53)
    }
    var worst = 0.0
    var checked = 0
    for trial in 0..<24 {
        let shape: RefShape
        switch trial % 4 {
        case 0:
            let r0 = random(2, 20)
            shape = .annulus(r0: r0, r1: r0 + random(0.5, 10))
        case 1:
            let start = random(-4, 4)
            shape = .union([
                .intersection(
                    .annulus(r0: 10, r1: 18), .wedge(start: start, sweep: random(0.01, 6.2))),
                .disc(cx: 14 * cos(start), cy: 14 * sin(start), r: 4),
            ])
        case 2:
            let a = (random(-10, 10), random(-10, 10))
            let b = (random(-10, 10), random(-10, 10))
            let mid = random(1.5, 6)
            shape = .capsuleStroke(
                ax: a.0, ay: a.1, bx: b.0, by: b.1, mid: mid, half: random(0.3, mid))
        default:
            shape = .disc(cx: random(-5, 5), cy: random(-5, 5), r: random(0.3, 15))
        }
        let canvas = RefCanvas(width: 48, height: 48, rotation: [0, 90, 180, 270][(trial / 4) % 4])
        for y in 0..<48 {
            for x in 0..<48 {
                let c = canvas.designPoint(Double(x) + 0.5, Double(y) + 0.5)
                guard abs(shape.sdf(c.0, c.1)) < 0.75, (x * 7 + y * 3) % 11 == 0 else { continue }
                var inside = 0
                for j in 0..<96 {
                    for i in 0..<96 {
                        let p = canvas.designPoint(
                            Double(x) + (Double(i) + 0.5) / 96, Double(y) + (Double(j) + 0.5) / 96)
                        if shape.sdf(p.0, p.1) <= 0 { inside += 1 }
                    }
                }
                let brute = Double(inside) / (96 * 96)
                let got = canvas.coverage(shape, x, y)
                worst = max(worst, abs(got - brute))
                checked += 1
                #expect(
                    abs(got - brute) < 0.01, "trial \(trial) pixel (\(x), \(y)): \(got) vs \(brute)"
                )
            }
        }
    }
    print("reference coverage vs 96x96 brute force: \(checked) edge pixels, worst \(worst)")
    #expect(checked > 150)
}

/// The reference's sweep alpha (line integrals near edges, centre values
/// elsewhere) against a 128x128 grid of point samples on pixels around the
/// hard edge, the ramp's start, the rim and the centre.
@Test(arguments: [(0.37, 0), (1.9, 90), (2.6, 270)])
func referenceSweepAgreesWithBruteForce(_ t: Double, _ rotation: Int) {
    var canvas = RefCanvas(width: 121, height: 120, rotation: rotation)
    let radius = 50.0
    let theta = RefTiming.radarAngleDegrees(t)
    canvas.sweep(radius: radius, edgeDegrees: theta, paint: RefPaint(rgb: 0xFFFFFF))
    let image = canvas.image
    var worst = 0.0
    var checked = 0
    for y in 0..<120 {
        for x in 0..<121 where (x * 5 + y * 3) % 7 == 0 {
            let c = canvas.designPoint(Double(x) + 0.5, Double(y) + 0.5)
            let r = (c.0 * c.0 + c.1 * c.1).squareRoot()
            let a = atan2(c.1, c.0)
            let e = theta * Double.pi / 180
            let offEdge = min(abs(r * sin(a - e)), abs(r * sin(a - e - Double.pi)))
            guard r < 4 || abs(r - radius) < 1.5 || offEdge < 1.5 else { continue }
            var sum = 0.0
            for j in 0..<128 {
                for i in 0..<128 {
                    let p = canvas.designPoint(
                        Double(x) + (Double(i) + 0.5) / 128, Double(y) + (Double(j) + 0.5) / 128)
                    sum += RefCanvas.sweepAlpha(p.0, p.1, radius: radius, edge: theta)
                }
            }
            let brute = sum / (128 * 128)
            let got = image.values[3 * (y * 121 + x)] / 255
            worst = max(worst, abs(got - brute))
            checked += 1
            #expect(abs(got - brute) < 0.01, "t \(t) pixel (\(x), \(y)): \(got) vs \(brute)")
        }
    }
    print("reference sweep vs 128x128 brute force, t=\(t): \(checked) px, worst \(worst)")
    #expect(checked > 40)
}

/// The reference's polygon fill (exact clipped areas) against point samples
/// with the even-odd rule (the heart is simple, so nonzero = even-odd), on
/// edge pixels of a heart turned by each rotation.
@Test(arguments: [0, 90, 180, 270])
func referenceHeartAgreesWithBruteForce(_ rotation: Int) {
    let heart = RefHeart.polygon(cx: 0.37, cy: -0.21, width: 40, perCurve: 16)
    var canvas = RefCanvas(width: 48, height: 48, rotation: rotation)
    canvas.fillPolygon(heart, RefPaint(rgb: 0xFFFFFF))
    let image = canvas.image
    func inside(_ x: Double, _ y: Double) -> Bool {
        var odd = false
        for i in 0..<heart.count {
            let a = heart[i]
            let b = heart[(i + 1) % heart.count]
            if (a.1 <= y) != (b.1 <= y) && x < a.0 + (y - a.1) * (b.0 - a.0) / (b.1 - a.1) {
                odd.toggle()
            }
        }
        return odd
    }
    var worst = 0.0
    var checked = 0
    for y in 0..<48 {
        for x in 0..<48 {
            let got = image.values[3 * (y * 48 + x)] / 255
            guard got > 0 && got < 1, (x + 2 * y) % 3 == 0 else { continue }
            var n = 0
            for j in 0..<48 {
                for i in 0..<48 {
                    let p = canvas.designPoint(
                        Double(x) + (Double(i) + 0.5) / 48, Double(y) + (Double(j) + 0.5) / 48)
                    if inside(p.0, p.1) { n += 1 }
                }
            }
            let brute = Double(n) / (48 * 48)
            worst = max(worst, abs(got - brute))
            checked += 1
            #expect(abs(got - brute) < 0.015, "pixel (\(x), \(y)): \(got) vs \(brute)")
        }
    }
    print(
        "reference heart vs 48x48 brute force, rotation \(rotation): \(checked) px, worst \(worst)")
    #expect(checked > 20)
}
