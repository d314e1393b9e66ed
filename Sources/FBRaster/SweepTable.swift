/// A sweep gradient's opacity for every direction a `DirectionCache` holds
/// (2^-16 turn): `values[d] == sampler.alpha(direction: UInt32(d) << 16)`
/// for every `d` in `0...65535`, so a pixel of a turning gradient costs a
/// lookup, not arithmetic on its angle.
///
/// Made per frame (a radar's gradient turns every frame) without evaluating
/// the ramp 65536 times: from `start`, the offset `u = (d << 16) - start`
/// grows with `d` except at one step, and the opacity is a monotone function
/// of `u` on the ramp (`a0` to `a1`), then `a1` up to `padSplit`, then `a0`.
/// So the table is at most 256 runs of one value on the ramp plus two pads;
/// each run's end is found (from the length of the run before, else by
/// bisection) and the run filled as bytes: about 1,000 evaluations and 64 KB
/// of stores a frame, for any size.
final class SweepTable {
    static let count = 1 << 16
    private let values = UnsafeMutablePointer<UInt8>.allocate(capacity: SweepTable.count)
    /// What the table was made for: `start`, `sweep`, `a0`, `a1` (nil: nothing yet).
    private var key: (UInt32, UInt64, Int64, Int64)?

    deinit { values.deallocate() }

    /// Forgets which gradient the table holds (the next `table` remakes it).
    func forget() { key = nil }

    /// The table of `sampler`, made unless it was made for the same gradient last.
    func table(for sampler: SweepSampler) -> UnsafePointer<UInt8> {
        if let key, key == (sampler.start, sampler.sweep, sampler.a0, sampler.a1) {
            return UnsafePointer(values)
        }
        key = (sampler.start, sampler.sweep, sampler.a0, sampler.a1)
        // Rotated index `r`: direction `d = (r + top) & 0xFFFF`, where `top`
        // is the start's whole steps. For r >= 1, u = (r << 16) - low grows
        // with r and never wraps (low < 2^16).
        let top = Int(sampler.start >> 16)
        @inline(__always) func alpha(_ r: Int) -> UInt8 {
            UInt8(
                truncatingIfNeeded: sampler.alpha(
                    direction: UInt32(truncatingIfNeeded: (r &+ top) & 0xFFFF) << 16))
        }
        values[top] = alpha(0)
        // The ramp: the r in 1... with u <= sweep.
        let low = UInt64(sampler.start & 0xFFFF)
        let rampEnd = min(Int((sampler.sweep &+ low) >> 16), SweepTable.count - 1)
        var r = 1
        // Runs on a ramp are about as long as the one before: try the end
        // that length gives, a step or two either side, and bisect when it
        // is not there.
        var length = 1
        while r <= rampEnd {
            let v = alpha(r)
            // The last r of the run of v: alpha is monotone on the ramp.
            var last = min(r &+ length &- 1, rampEnd)
            var steps = 0
            while last > r && steps < 2 && alpha(last) != v {
                last &-= 1
                steps &+= 1
            }
            while last < rampEnd && steps < 2 && alpha(last &+ 1) == v {
                last &+= 1
                steps &+= 1
            }
            if !(alpha(last) == v && (last == rampEnd || alpha(last &+ 1) != v)) {
                var lo = r
                var hi = rampEnd
                while lo < hi {
                    let mid = (lo &+ hi &+ 1) >> 1
                    if alpha(mid) == v { lo = mid } else { hi = mid &- 1 }
                }
                last = lo
            }
            fill(from: r, through: last, top: top, v)
            length = last &- r &+ 1
            r = last &+ 1
        }
        // The pads: a1 below padSplit, a0 from it.
        if r < SweepTable.count {
            let splitR = min(
                Int((sampler.padSplit &+ low &+ 0xFFFF) >> 16), SweepTable.count)
            // First r with u >= padSplit, i.e. (r << 16) - low >= padSplit.
            let a1 = UInt8(truncatingIfNeeded: sampler.a1)
            let a0 = UInt8(truncatingIfNeeded: sampler.a0)
            if splitR > r { fill(from: r, through: splitR &- 1, top: top, a1) }
            if max(splitR, r) < SweepTable.count {
                fill(from: max(splitR, r), through: SweepTable.count &- 1, top: top, a0)
            }
        }
        return UnsafePointer(values)
    }

    /// Sets rotated indices `first...last` (within 1...65535) to `v`, in
    /// directions `(r + top) & 0xFFFF`: one or two stretches of bytes.
    private func fill(from first: Int, through last: Int, top: Int, _ v: UInt8) {
        let a = (first &+ top) & 0xFFFF
        let n = last &- first &+ 1
        let head = min(n, SweepTable.count &- a)
        (values + a).update(repeating: v, count: head)
        if head < n { values.update(repeating: v, count: n &- head) }
    }
}
