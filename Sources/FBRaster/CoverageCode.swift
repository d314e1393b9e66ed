// The row code of `CoverageCache` (its header says the format): written by
// `SegmentWriter`, read back into runs by `CoverageReplay` (for paints that
// need runs) and painted straight by `KeptPainter` (one colour).

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
        p += 3
        (a, f, b) = (0, 0, 0)
        end = x
    }

    mutating func close() {
        guard header >= 0 else { return }
        block[header] = UInt8(a)
        block[header + 1] = UInt8(f)
        block[header + 2] = UInt8(b)
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
            if f == 0 && a < 255 {
                a += 1
            } else if f > 0 && b < 255 {
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
        for _ in area.y..<clip.y { cursor += 2 + CoverageReplay.length(cursor) }
    }

    private static func length(_ p: UnsafePointer<UInt8>) -> Int { Int(p[0]) | Int(p[1]) << 8 }

    /// The next row (`r` counts up from 0, one at a time).
    func resolveRow(_ r: Int) -> Int {
        // Locals, not properties, in the loop: no exclusivity checks.
        let row = cursor
        var p = row + 2
        let end = p + CoverageReplay.length(row)
        cursor = end
        var out = RunWriter(runs: runs, alpha: alpha, width: bounds.width)
        var x = left
        while p < end && x < out.width {
            var gap = Int(p[0])
            p += 1
            if gap == 255 {
                gap = Int(p[0]) | Int(p[1]) << 8
                p += 2
            }
            x += gap
            let (a, f, b) = (Int(p[0]), Int(p[1]), Int(p[2]))
            let values = p + 3
            p = values + a + b
            out.mask(x, a, values)
            out.constant(x + a, f, 255)
            out.mask(x + a + f, b, values + a)
            x += a + f + b
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
