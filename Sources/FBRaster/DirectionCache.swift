/// The direction of every pixel centre in a rectangle from one centre point,
/// computed once and kept while the centre stays: a radar's gradient turns
/// every frame, its geometry does not, so a frame costs a subtraction per
/// pixel instead of an arctangent. Kept in 2^-16 turn (rounded; 0.0055
/// degrees, under 1/50 px at 600 px from the centre): half the memory of a
/// full angle, 320 KB for a radar's disc at 800x480.
final class DirectionCache {
    private var values = UnsafeMutablePointer<UInt16>.allocate(capacity: 0)
    private var capacity = 0
    private var rect = IntRect(x: 0, y: 0, width: 0, height: 0)
    private var cx: Int64 = .min
    private var cy: Int64 = .min

    deinit { values.deallocate() }

    /// Forgets the centre (the memory stays): the next `prepare` computes every direction.
    func forget() {
        cx = .min
        cy = .min
        rect = IntRect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Makes `row(y:x:)` valid for every pixel of `area` around `center`.
    func prepare(center: SubpixelPoint, covering area: IntRect) {
        // Kept and computed on raw 24.8 values (the per-pixel loop).
        let (centerX, centerY) = (center.x.raw, center.y.raw)
        if centerX == cx && centerY == cy && rect.intersection(area) == area { return }
        // Grow to hold what was asked before too: the requests of a turning
        // gradient differ frame to frame but settle inside one square.
        let keep = centerX == cx && centerY == cy && !rect.isEmpty
        let r = keep ? DirectionCache.grown(rect.union(area), center) : area
        // Directions already worked out are moved, not worked out again: a
        // turning sector's bounds grow over many frames, and each direction
        // costs a division.
        let old = (values: values, rect: rect)
        let fresh: UnsafeMutablePointer<UInt16>
        if keep || capacity < r.width * r.height {
            fresh = .allocate(capacity: r.width * r.height)
            capacity = r.width * r.height
        } else {
            fresh = values  // a new centre: nothing to keep, the memory is enough
        }
        cx = centerX
        cy = centerY
        for y in 0..<r.height {
            let out = fresh + y * r.width
            let oldRow = r.y + y - old.rect.y
            if keep && oldRow >= 0 && oldRow < old.rect.height {
                let left = old.rect.x - r.x
                compute(out, y: r.y + y, x: r.x, count: left)
                (out + left).update(
                    from: old.values + oldRow * old.rect.width, count: old.rect.width)
                let right = left + old.rect.width
                compute(out + right, y: r.y + y, x: r.x + right, count: r.width - right)
            } else {
                compute(out, y: r.y + y, x: r.x, count: r.width)
            }
        }
        if fresh != old.values { old.values.deallocate() }
        values = fresh
        rect = r
    }

    /// `union` grown to the square around the centre that holds it (cut at
    /// column and row 0 where the union does not pass them), unless that is over 4 times as large: what a
    /// turning gradient asks for in the end, so it grows once or twice, not
    /// on many frames, each time holding old and new directions at once.
    static func grown(_ union: IntRect, _ center: SubpixelPoint) -> IntRect {
        let px = center.x.floor
        let py = center.y.floor
        let h = max(px - union.x, union.maxX - px, py - union.y, union.maxY - py)
        let x = max(px - h, min(union.x, 0))
        let y = max(py - h, min(union.y, 0))
        let square = IntRect(x: x, y: y, width: px + h - x, height: py + h - y)
        return square.width * square.height <= 4 * union.width * union.height ? square : union
    }

    /// The directions of `count` pixel centres from column `x` of row `y`, into `out`.
    private func compute(_ out: UnsafeMutablePointer<UInt16>, y: Int, x: Int, count: Int) {
        let dy = (Int64(y) << 8) + 128 - cy
        for i in 0..<count {
            let dx = (Int64(x + i) << 8) + 128 - cx
            out[i] = UInt16(
                truncatingIfNeeded: (Angle.direction(dx: dx, dy: dy).raw &+ 0x8000) >> 16)
        }
    }

    /// The directions of row `y` from column `x` on.
    @inline(__always)
    func row(y: Int, x: Int) -> UnsafePointer<UInt16> {
        UnsafePointer(values + (y - rect.y) * rect.width + (x - rect.x))
    }
}
