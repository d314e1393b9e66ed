// The row code of `CoverageCache` (its header says the format): written by
// `SegmentWriter`, read back into runs by `CoverageReplay` (for paints that
// need runs) and painted straight by `KeptPainter` (one colour).

/// Reading the row code.
enum CoverageCode {
    /// The segments of the row whose code starts at `p`: first byte, and
    /// the byte after the last (the next row's code).
    @inline(__always)
    static func row(_ p: UnsafePointer<UInt8>) -> (UnsafePointer<UInt8>, end: UnsafePointer<UInt8>)
    {
        // Selects, not branches (each branch a block dispatch under an
        // emulator). The two bytes after the count are read even when they
        // are not the row's: they are inside the block all the same, as
        // `CoverageCache.append` keeps 3 bytes free for each row it adds.
        let n = Int(p[0])
        let long = n == 255
        let first = p + (long ? 3 : 1)
        return (first, first + (long ? Int(p[1]) | Int(p[2]) << 8 : n))
    }

    /// The segment whose code starts at `p`, and where the next one starts.
    @inline(__always)
    static func segment(
        _ p: UnsafePointer<UInt8>
    ) -> (
        gap: Int, a: Int, f: Int, b: Int, values: UnsafePointer<UInt8>, next: UnsafePointer<UInt8>
    ) {
        // Selects, not branches, as in `row`: a segment's two header bytes
        // always follow its gap byte.
        let short = Int(p[0])
        let long = short == 255
        let gap = long ? Int(p[1]) | Int(p[2]) << 8 : short
        let q = p + (long ? 3 : 1)
        let a = Int(q[0] >> 4)
        let b = Int(q[0] & 15)
        let values = q + 2
        return (gap, a, Int(q[1]), b, values, values + (a &+ b))
    }
}

/// Writes one row's segments (see `CoverageCache`).
struct SegmentWriter {
    let block: UnsafeMutablePointer<UInt8>
    /// The next byte to write.
    var p: Int
    /// The pixel after the last segment.
    var end = 0
    /// Where the open segment's counts go; -1 when none is open.
    var header = -1
    var a = 0
    var f = 0
    var b = 0

    init(block: UnsafeMutablePointer<UInt8>, p: Int) {
        self.block = block
        self.p = p
    }

    mutating func open(_ x: Int) {
        close()
        let gap = x - end
        if gap < 255 {
            block[p] = UInt8(gap)
            p += 1
        } else {
            block[p] = 255
            block[p + 1] = UInt8(truncatingIfNeeded: gap)
            block[p + 2] = UInt8(truncatingIfNeeded: gap >> 8)
            p += 3
        }
        header = p
        p += 2
        (a, f, b) = (0, 0, 0)
        end = x
    }

    mutating func close() {
        guard header >= 0 else { return }
        block[header] = UInt8(a << 4 | b)
        block[header + 1] = UInt8(f)
        header = -1
    }

    /// `n` fully covered pixels from `x`.
    mutating func full(_ x: Int, _ n: Int) {
        var left = n
        while left > 0 {
            if header < 0 || end != x + (n - left) || b > 0 || f == 255 { open(x + (n - left)) }
            let k = min(left, 255 - f)
            f += k
            end += k
            left -= k
        }
    }

    /// `n` pixels from `x` whose alphas `value(i)` gives.
    mutating func alphas(_ x: Int, _ n: Int, _ value: (Int) -> UInt8) {
        for i in 0..<n {
            if header < 0 || end != x + i {
                open(x + i)
            }
            if f == 0 && a < 15 {
                a += 1
            } else if f > 0 && b < 15 {
                b += 1
            } else {
                open(x + i)
                a = 1
            }
            block[p] = value(i)
            p += 1
            end += 1
        }
    }
}

/// A kept entry painted through a clip: its rows decoded one at a time, in order.
final class CoverageReplay: CoverageRows {
    private(set) var bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
    private(set) var alpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private(set) var runs = UnsafeMutablePointer<CoverageRun>.allocate(capacity: 0)
    private var capacity = 0
    private var cursor = UnsafePointer<UInt8>(bitPattern: 1)!
    /// The entry's left edge, relative to `bounds.x` (zero or less).
    private var left = 0

    deinit {
        alpha.deallocate()
        runs.deallocate()
    }

    /// Replays the entry whose rows start at `rows` and cover `area`,
    /// inside `clip` (within `area`).
    func begin(_ rows: UnsafePointer<UInt8>, area: IntRect, clip: IntRect) {
        if capacity < clip.width {
            alpha.deallocate()
            runs.deallocate()
            capacity = clip.width
            alpha = .allocate(capacity: capacity)
            runs = .allocate(capacity: capacity + 1)
        }
        bounds = clip
        left = area.x - clip.x
        cursor = rows
        for _ in area.y..<clip.y { cursor = CoverageCode.row(cursor).end }
    }

    /// The next row (`r` counts up from 0, one at a time).
    func resolveRow(_ r: Int) -> Int {
        // Locals, not properties, in the loop: no exclusivity checks.
        var (p, end) = CoverageCode.row(cursor)
        cursor = end
        var out = RunWriter(runs: runs, alpha: alpha, width: bounds.width)
        var x = left
        while p < end && x < out.width {
            let s = CoverageCode.segment(p)
            p = s.next
            x += s.gap
            out.mask(x, s.a, s.values)
            out.constant(x + s.a, s.f, 255)
            out.mask(x + s.a + s.f, s.b, s.values + s.a)
            x += s.a + s.f + s.b
        }
        return out.count
    }
}

/// Appends clipped runs to a row, joining each to the one before when they meet.
private struct RunWriter {
    let runs: UnsafeMutablePointer<CoverageRun>
    let alpha: UnsafeMutablePointer<UInt8>
    let width: Int
    var count = 0

    init(runs: UnsafeMutablePointer<CoverageRun>, alpha: UnsafeMutablePointer<UInt8>, width: Int) {
        self.runs = runs
        self.alpha = alpha
        self.width = width
    }

    /// `k` pixels from `x` at alpha `a`.
    @inline(__always)
    mutating func constant(_ x: Int, _ k: Int, _ a: Int16) {
        let lo = max(x, 0)
        let hi = min(x + k, width)
        if lo >= hi { return }
        if count > 0, runs[count - 1].alpha == a,
            Int(runs[count - 1].start + runs[count - 1].count) == lo
        {
            runs[count - 1].count += Int32(hi - lo)
            return
        }
        runs[count] = CoverageRun(start: Int32(lo), count: Int32(hi - lo), alpha: a)
        count += 1
    }

    /// `k` pixels from `x` whose alphas are at `source`.
    @inline(__always)
    mutating func mask(_ x: Int, _ k: Int, _ source: UnsafePointer<UInt8>) {
        let lo = max(x, 0)
        let hi = min(x + k, width)
        if lo >= hi { return }
        (alpha + lo).update(from: source + (lo - x), count: hi - lo)
        if count > 0, runs[count - 1].alpha < 0,
            Int(runs[count - 1].start + runs[count - 1].count) == lo
        {
            runs[count - 1].count += Int32(hi - lo)
            return
        }
        runs[count] = CoverageRun(start: Int32(lo), count: Int32(hi - lo), alpha: -1)
        count += 1
    }
}
