import FBRaster
import Foundation
import Testing
import _FBTestSupport

// Tests of the test: the reference renderer against areas and pixel values
// worked out by hand from the spec, so that the oracle is itself checked
// before it judges the renderer.

@Suite struct ReferenceSelfTests {
    /// Sum of one channel over the frame divided by `full`: the covered area.
    func area(_ image: RefImage, channel: Int, full: Double) -> Double {
        var sum = 0.0
        for i in stride(from: channel, to: image.values.count, by: 3) { sum += image.values[i] }
        return sum / full
    }

    @Test func annulusCoverageAddsUpToItsArea() {
        // Ring track alone (t < 0.5): 235 * 0.3 per fully covered pixel in R.
        let image = ReferenceRenderer.render(
            RefParams(loader: "ring", width: 240, height: 240, time: 0.2))
        let exact = Double.pi * (90 * 90 - 74 * 74)
        #expect(abs(area(image, channel: 0, full: 235 * 0.3) - exact) < 1e-3 * exact)
    }

    @Test func sweepAlphaAveragesToAQuarterOverTheDisc() {
        // mean over u in [0, 1) of max(0, (u - 0.5) / 0.5) is 1/4.
        for (t, size) in [(0.0, 240), (1.234, 241)] {
            var canvas = RefCanvas(width: size, height: size)
            canvas.sweep(
                radius: 100, edgeDegrees: RefTiming.radarAngleDegrees(t),
                paint: RefPaint(rgb: 0xFFFFFF))
            let exact = Double.pi * 100 * 100 / 4
            #expect(abs(area(canvas.image, channel: 1, full: 255) - exact) < 1e-3 * exact)
        }
    }

    @Test func heartCoverageMatchesTheShoelaceArea() {
        // The heart is a simple closed curve: its area (shoelace on a much
        // finer flattening) must equal the summed pixel coverage.
        let fine = RefHeart.polygon(cx: 0, cy: 0, width: 48, perCurve: 4096)
        var twice = 0.0
        for i in 0..<fine.count {
            let a = fine[i]
            let b = fine[(i + 1) % fine.count]
            twice += a.0 * b.1 - b.0 * a.1
        }
        var canvas = RefCanvas(width: 64, height: 64)
        canvas.fillPolygon(
            RefHeart.polygon(cx: 0.3, cy: -0.2, width: 48, perCurve: 64),
            RefPaint(rgb: 0xFFFFFF))
        let exact = abs(twice) / 2
        #expect(abs(area(canvas.image, channel: 0, full: 255) - exact) < 1e-3 * exact)
    }

    @Test func roundCappedArcIsOneShapeAtATinySweep() {
        // Ring at t = 0.5 + 1e-4: the two caps coincide; the union is one
        // disc of radius 8 at 12 o'clock, so its area is 64 pi (not 128 pi).
        let track = ReferenceRenderer.render(
            RefParams(loader: "ring", width: 240, height: 240, time: 0.2))
        let dot = ReferenceRenderer.render(
            RefParams(loader: "ring", width: 240, height: 240, time: 0.5001))
        // Over the track, the arc adds 0.5 * (255 - 70.5) to R per covered pixel.
        var sum = 0.0
        for i in stride(from: 0, to: dot.values.count, by: 3) {
            sum += dot.values[i] - track.values[i]
        }
        let covered = sum / (0.5 * (255 - 235 * 0.3))
        #expect(abs(covered - 64 * Double.pi) < 0.5)
    }

    func near(_ a: [Double], _ b: [Double]) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }
    }

    func pixel(_ image: RefImage, _ x: Int, _ y: Int) -> [Double] {
        let i = 3 * (y * image.width + x)
        return Array(image.values[i..<(i + 3)])
    }

    @Test func handComputedPixels() {
        // Ring track: pixel (119, 37) lies wholly between radii 74 and 90.
        let ring = ReferenceRenderer.render(
            RefParams(loader: "ring", width: 240, height: 240, time: 0.2))
        let track: [Double] = [235 * 0.3, 235 * 0.3, 245 * 0.3]
        #expect(near(pixel(ring, 119, 37), track))

        // Radar at t = 0: edge at 3 o'clock; 12 o'clock is u = 0.75, alpha
        // 0.5; the two pixels either side of the vertical axis average to it.
        let radar = ReferenceRenderer.render(
            RefParams(loader: "radar", width: 240, height: 240, time: 0))
        let g = (pixel(radar, 119, 70)[1] + pixel(radar, 120, 70)[1]) / 2
        #expect(abs(g - 199 * 0.5) < 0.01)
        // Just behind the edge (above the +x axis) opaque, just ahead clear.
        // Pixel (180, 117): centre (60.5, -2.5) from the loader's centre,
        // u = 1 - atan(2.5 / 60.5) / 360 degrees, alpha = 2u - 1.
        let behind: Double = 199 * (1 - 2 * atan2(2.5, 60.5) / (2 * Double.pi))
        #expect(abs(pixel(radar, 180, 117)[1] - behind) < 0.01)
        #expect(pixel(radar, 180, 122)[1] == 0)

        // Spinner at t = 0, all leaves resting: leaf 0 is centred at (40, 70)
        // from the centre; the middle of its right stroke is 10 to the right.
        // Leaf 3 is turned 90 degrees clockwise: centred at (-70, 40).
        let spinner = ReferenceRenderer.render(
            RefParams(loader: "spinner", width: 240, height: 240, time: 0))
        #expect(near(pixel(spinner, 170, 190), [142, 142, 147]))
        #expect(near(pixel(spinner, 50, 169), [142, 142, 147]))
        #expect(near(pixel(spinner, 160, 190), [0, 0, 0]))  // inside the capsule: not filled

        // Orbit at t = 0: both hearts at 3 o'clock, (220, 120); opaque orange
        // over the track.
        let orbit = ReferenceRenderer.render(
            RefParams(loader: "orbit", width: 240, height: 240, time: 0))
        #expect(near(pixel(orbit, 219, 119), [255, 149, 0]))
        // Track at 12 o'clock: pixels (119, 20) and (120, 20) lie wholly between radii 99 and 101.
        #expect(near(pixel(orbit, 119, 20), [0x58, 0x56, 0xD6]))
        #expect(near(pixel(orbit, 120, 20), [0x58, 0x56, 0xD6]))
    }

    @Test func rotationTurnsThePictureClockwise() {
        // 90 clockwise maps pixel (x, y) of a square frame to (H - 1 - y, x).
        // Sub-lines are laid across each edge whatever the rotation, so edge
        // pixels agree to a sub-line quantisation error (well under 0.05).
        for loader in ["ring", "orbit", "radar", "spinner"] {
            let upright = ReferenceRenderer.render(
                RefParams(loader: loader, width: 240, height: 240, time: 1))
            let turned = ReferenceRenderer.render(
                RefParams(loader: loader, width: 240, height: 240, time: 1, rotation: 90))
            for y in stride(from: 3, to: 240, by: 7) {
                for x in stride(from: 1, to: 240, by: 3) {
                    let a = pixel(upright, x, y)
                    let b = pixel(turned, 239 - y, x)
                    #expect(
                        zip(a, b).allSatisfy { abs($0 - $1) < 0.05 },
                        "\(loader) (\(x), \(y)): \(a) vs \(b)")
                }
            }
        }
    }
}
