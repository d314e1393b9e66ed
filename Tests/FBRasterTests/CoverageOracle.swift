// The coverage oracle: a shape rendered by `Rasterizer.fill` (opaque white on
// black xrgb8888, so each pixel's value is its 8-bit coverage) against the
// reference coverage of ReferenceGeometry.swift.
//
// TOLERANCES, in 1/255 of full coverage, and why:
//
// The rasterizer's own error budget at an edge pixel:
//  - curves become chords at most 1/128 px from the curve (Flatten.swift);
//    arcs put their vertices out by r d^2 / 12 so the chords cross the curve
//    and their area matches it: the polygon stays within 1/192 px of the curve,
//    so over the (at most ~1.4 px long) piece of edge in one pixel the area
//    differs by at most ~1/128 px^2, about 2/255;
//  - vertices are rounded to 1/256 px (24.8), moving an edge by up to
//    1/362 px: 0.7/255 at most, usually far less, and of random sign;
//  - the accumulator rounds where edges cross pixel borders to 1/256 px;
//  - alpha is the 8-bit rounding of the area: 0.5/255.
// The reference's own error (see ReferenceGeometry.swift): at most 1/(2N) px
// with N = 256 bands, 0.5/255, for edges parallel to the bands; nearly 0 for
// curves. Hence a bound on the worst pixel of 3/255 + 0.5/255 = 3.5/255.
//
// Over many edge pixels the errors average out: rounding to 8 bits alone
// gives a mean |error| of 0.25/255, so the mean |error| over edge pixels
// must stay below 0.5/255 and the mean signed error (bias) below 0.25/255
// for circular arcs, whose vertices are pushed out so that each chord's area
// matches its arc's. Cubics are cut into chords with their ends on the
// curve, so a convex stretch loses up to 2/3 of the 1/128 px sagitta on
// average (1.3/255): paths get a bias bound of 0.5/255 (measured: 0.46).
// A shape with few edge pixels (a 1 px disc has ~4) has a noisy mean: the
// roundings are uniform in +-0.5/255 (std 0.29/255), so over E pixels we
// allow 5 standard deviations of that noise on top: + 0.75/sqrt(E) for the
// mean |error|, + 1.5/sqrt(E) for the bias.
//
// The total (sum of coverage) must match the shape's area in closed form:
// the 8-bit roundings are independent with a standard deviation of
// 0.29/255 each, so over E edge pixels their sum stays (at 5 sigma) within
// 1.5 sqrt(E)/255 px^2; the polygon's area is matched to the curve's, so we
// add only 0.1% of the area for vertex rounding.

import Foundation
import Testing
import _FBTestSupport

@testable import FBRaster

enum CoverageTolerance {
    static let bandsPerPixel = 256
    /// Worst pixel, in 1/255.
    static let maxError = 3.5
    /// Mean |error| over E edge pixels, in 1/255.
    static func meanError(edgePixels e: Int) -> Double {
        0.5 + 0.75 / Double(max(e, 1)).squareRoot()
    }
    /// Mean signed error over E edge pixels, in 1/255 (`cubic`: paths of cubic Béziers).
    static func bias(edgePixels e: Int, cubic: Bool = false) -> Double {
        (cubic ? 0.5 : 0.25) + 1.5 / Double(max(e, 1)).squareRoot()
    }

    /// Allowed |sum of coverage - exact area| in px^2.
    static func area(_ exact: Double, edgePixels: Int) -> Double {
        0.001 * exact + 1.5 * Double(edgePixels).squareRoot() / 255
    }
}

extension Reference {
    /// The region `shape` covers once placed by `transform`, from Shape.swift's
    /// definitions; `nil` for paths (see `ReferencePolygon`).
    static func region(_ shape: Shape, _ transform: Transform) -> Region? {
        let t = DoubleTransform(transform)
        switch shape {
        case let .disc(c, r):
            let d = t.apply(c)
            return r.raw > 0 ? .disc(cx: d.x, cy: d.y, r: t.scale * r.double) : .nothing
        case let .annulus(c, inner, outer):
            let d = t.apply(c)
            return annulus(
                cx: d.x, cy: d.y, inner: t.scale * inner.double, outer: t.scale * outer.double)
        case let .sector(c, r, start, sweep):
            let d = t.apply(c)
            if r.raw <= 0 { return .nothing }
            return .intersection([
                .disc(cx: d.x, cy: d.y, r: t.scale * r.double),
                wedge(cx: d.x, cy: d.y, start: start.radians + t.rotation, sweep: sweep.radians),
            ])
        case let .arc(c, r, w, start, sweep, cap):
            // The points within w/2 of the arc of radius r (round caps), or of
            // its radial projection (butt caps).
            let d = t.apply(c)
            let h = t.scale * w.double / 2
            let rr = t.scale * r.double
            if w.raw <= 0 || r.raw <= 0 || sweep.raw == 0 { return .nothing }
            let ring = annulus(cx: d.x, cy: d.y, inner: max(rr - h, 0), outer: rr + h)
            if abs(sweep.raw) >= AngleSpan.fullTurn.raw { return ring }
            let a0 = start.radians + t.rotation
            let a1 = a0 + sweep.radians
            let body = Region.intersection([
                ring, wedge(cx: d.x, cy: d.y, start: a0, sweep: sweep.radians),
            ])
            if cap == .butt { return body }
            return .union([
                body,
                .disc(cx: d.x + rr * cos(a0), cy: d.y + rr * sin(a0), r: h),
                .disc(cx: d.x + rr * cos(a1), cy: d.y + rr * sin(a1), r: h),
            ])
        case let .roundedRectStroke(c, hw, hh, cr, lw):
            // The points within lw/2 of the rounded rectangle's outline: the
            // outline offset outwards (radius + h) minus the one offset
            // inwards (radius - h, sharp when that is negative).
            let h = lw.double / 2
            if lw.raw <= 0 || hw.raw < 0 || hh.raw < 0 { return .nothing }
            let r = max(0, min(cr.double, hw.double, hh.double))
            let outer = roundedBox(
                t, cx: c.dx, cy: c.dy, hw: hw.double + h, hh: hh.double + h, r: r + h)
            if hw.double <= h || hh.double <= h { return outer }
            let inner = roundedBox(
                t, cx: c.dx, cy: c.dy, hw: hw.double - h, hh: hh.double - h, r: max(r - h, 0))
            return .difference(outer, inner)
        case .path:
            return nil
        }
    }
}

/// One oracle comparison: renders `shape` and its reference on a
/// `width x height` surface, checks the tolerances above, returns the figures.
@discardableResult
func checkCoverage(
    _ shape: Shape, transform: Transform = .identity, width: Int, height: Int, exactArea: Double?,
    label: String, sink: StatsSink? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> ErrorStats {
    let got = renderCoverage(shape, transform: transform, width: width, height: height)
    var isPath = false
    let intervals: (Double) -> Intervals
    if let region = Reference.region(shape, transform) {
        intervals = { region.intervals(y: $0) }
    } else if case let .path(path) = shape {
        isPath = true
        let polygon = ReferencePolygon(path.elements, DoubleTransform(transform), height: height)
        intervals = { polygon.intervals(y: $0) }
    } else {
        fatalError("no reference")
    }
    let reference = referenceCoverage(
        width: width, height: height, bandsPerPixel: CoverageTolerance.bandsPerPixel,
        intervals: intervals)
    let stats = ErrorStats(got: got, reference: reference, width: width)
    var areaError = 0.0
    if let exact = exactArea {
        // The reference itself must add up to the closed form (checks the
        // oracle): within its own error, 1/(2N) px^2 per edge pixel at worst
        // (edges along the bands), next to nothing for curves.
        let referenceBound =
            1e-5 * exact + 1e-4 + Double(stats.edgePixels)
            / Double(2 * CoverageTolerance.bandsPerPixel)
        #expect(
            abs(stats.referenceSum - exact) <= referenceBound,
            "\(label): reference sum \(stats.referenceSum) vs exact area \(exact)",
            sourceLocation: sourceLocation)
        let diff = abs(stats.renderedSum - exact)
        areaError = diff / exact
        #expect(
            diff <= CoverageTolerance.area(exact, edgePixels: stats.edgePixels),
            "\(label): total coverage \(stats.renderedSum) px^2 vs exact area \(exact) px^2",
            sourceLocation: sourceLocation)
    }
    #expect(
        stats.maxError <= CoverageTolerance.maxError, "\(label): \(stats)",
        sourceLocation: sourceLocation)
    #expect(
        stats.meanEdgeError <= CoverageTolerance.meanError(edgePixels: stats.edgePixels),
        "\(label): \(stats)", sourceLocation: sourceLocation)
    #expect(
        abs(stats.meanEdgeBias)
            <= CoverageTolerance.bias(edgePixels: stats.edgePixels, cubic: isPath),
        "\(label): \(stats)", sourceLocation: sourceLocation)
    if ProcessInfo.processInfo.environment["FBRASTER_STATS"] == "all" {
        print("[case] \(label): \(stats)")
    }
    sink?.add(stats, areaRelativeError: areaError)
    return stats
}

/// Random geometry for the oracle sweeps.
extension SeededRandom {
    /// Log-uniform in `lo...hi`: as many small radii as large ones.
    mutating func logUniform(_ lo: Double, _ hi: Double) -> Double {
        lo * pow(hi / lo, Double.random(in: 0...1, using: &self))
    }
    mutating func unit() -> Double { Double.random(in: 0..<1, using: &self) }

    /// A random similarity transform: scale in 0.5...2, any rotation, a sub-pixel translation.
    mutating func transform(around c: (x: Double, y: Double)) -> Transform {
        Transform(
            scale: ScaleFactor(logUniform(0.5, 2)), rotation: Angle(turns: unit()),
            translation: Point(c.x + unit(), c.y + unit()))
    }
}
