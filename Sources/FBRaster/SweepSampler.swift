/// Evaluates a `SweepGradient`'s opacity at pixels, in device space.
///
/// Per pixel: the direction of the pixel centre from the gradient's centre
/// (`Angle.direction`), its offset `u` from the start, and the linear ramp at
/// `u / sweep` (through a reciprocal, no division). Within 2 px of the centre,
/// where the direction turns fast across one pixel, the mean of a 4x4 grid.
/// Spans do not run this per pixel: they look the opacity up in the
/// `SweepTable` made from it, by the pixel's kept direction (`DirectionCache`).
struct SweepSampler {
    /// The gradient's centre in device space, raw 24.8 (`Subpixel.raw`):
    /// stored raw for the per-run and per-pixel code below (typed, the
    /// sampler's row loop took 3 % more instructions on aarch64); `center`
    /// is the typed view.
    let cx: Int64
    let cy: Int64
    let start: UInt32
    let sweep: UInt64
    let reciprocal: UInt64
    let a0: Int64
    let a1: Int64
    /// Offsets past the end below this pad with the end value, above it with the start.
    let padSplit: UInt64
    let rgb: UInt32

    init(_ g: SweepGradient, _ transform: Transform) {
        let center = SubpixelPoint(transform.apply(g.center))
        cx = center.x.raw
        cy = center.y.raw
        start = (g.start + transform.rotation).raw
        sweep = UInt64(min(max(g.sweep.raw, 1), AngleSpan.fullTurn.raw))
        reciprocal = (1 << 48) / sweep
        a0 = Int64(div255(UInt32(g.startAlpha) * UInt32(g.color.a)))
        a1 = Int64(div255(UInt32(g.endAlpha) * UInt32(g.color.a)))
        padSplit = sweep + ((1 << 32) - sweep) / 2
        rgb = g.color.rgb
    }

    /// The gradient's centre in device space.
    var center: SubpixelPoint { SubpixelPoint(x: Subpixel(raw: cx), y: Subpixel(raw: cy)) }

    /// Opacity (0...255) at the subpixel offset `(dx, dy)` from the centre.
    @inline(__always)
    func alpha(dx: Int64, dy: Int64) -> Int64 {
        alpha(direction: Angle.direction(dx: dx, dy: dy).raw)
    }

    /// Opacity (0...255) in direction `direction` from the centre.
    @inline(__always)
    func alpha(direction: UInt32) -> Int64 {
        let u = UInt64(direction &- start)
        if u > sweep { return u < padSplit ? a1 : a0 }
        let t = Int64((u &* reciprocal) >> 32)  // 0...65536
        return a0 + (((a1 - a0) * t + 32768) >> 16)
    }

    /// Writes `mask[i] = coverage[i] * opacity` for `count` pixels from column `x` of row `y`.
    /// Whether row `y` passes within 2 px of the centre, where `modulate`
    /// averages a 4x4 grid instead of taking the pixel centre.
    @inline(__always)
    func isNearCenter(y: Int) -> Bool {
        ((Int64(y) << 8) + 128 - cy).magnitude < 512
    }

    /// `directions[i]` is the direction of pixel `x + i`'s centre in 2^-16
    /// turn (a `DirectionCache` row), `alphas` this sampler's `SweepTable`.
    func modulate(
        x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>, alphas: UnsafePointer<UInt8>,
        directions: UnsafePointer<UInt16>, into mask: UnsafeMutablePointer<UInt8>
    ) {
        let dy = (Int64(y) << 8) + 128 - cy
        for i in 0..<count {
            let a = UInt32(alphas[Int(directions[i])])
            let cov = UInt32(coverage[i])
            mask[i] = UInt8(truncatingIfNeeded: div255(a * cov))
        }
        // Near the centre one sample is not the pixel's mean: use 16.
        guard dy.magnitude < 512 else { return }
        let first = max(x, Int((cx - 512) >> 8))
        let last = min(x + count - 1, Int((cx + 512) >> 8))
        guard first <= last else { return }
        for px in first...last {
            let ox = (Int64(px) << 8) + 32 - cx
            let oy = (Int64(y) << 8) + 32 - cy
            var sum: Int64 = 0
            for j in 0..<4 {
                for i in 0..<4 { sum += alpha(dx: ox + 64 * Int64(i), dy: oy + 64 * Int64(j)) }
            }
            let a = UInt32((sum + 8) >> 4)
            let cov = UInt32(coverage[px - x])
            mask[px - x] = UInt8(truncatingIfNeeded: div255(a * cov))
        }
    }
}
