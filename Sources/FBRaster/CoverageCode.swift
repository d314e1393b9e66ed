// The row code of `CoverageCache` (its header says the format): written by
// `SegmentWriter`, read back into runs by `CoverageReplay` (for paints that
// need runs) and painted straight by `KeptPainter` (one colour).

/// Reading the row code.
enum CoverageCode {
    /// Header bit: the segment is its row's last.
    static let lastBit: UInt32 = 1 << 28

    /// The segment whose code starts at `p`: its first pixel (from the
    /// area's left edge), its counts and alphas, where the code goes on,
    /// and whether it ends its row. A row's only segment may be empty
    /// (`a`, `f` and `b` all 0: a row with nothing covered).
    @inline(__always)
    static func segment(
        _ p: UnsafePointer<UInt8>
    ) -> (
        x: Int, a: Int, f: Int, b: Int, values: UnsafePointer<UInt8>,
        next: UnsafePointer<UInt8>, last: Bool
    ) {
        // One load and shifts: no byte counts to decode, no x to add up.
        let h = UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
        let a = Int(truncatingIfNeeded: h &>> 12 & 15)
        let b = Int(truncatingIfNeeded: h &>> 16 & 15)
        let values = p + 4
        return (
            Int(truncatingIfNeeded: h & 0xFFF), a, Int(truncatingIfNeeded: h &>> 20 & 255), b,
            values, values + (a &+ b), h & lastBit != 0
        )
    }

    /// Where the row after the one whose code (or a segment of it) is at `p` starts.
    static func rowAfter(_ p: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var p = p
        while true {
            let s = segment(p)
            p = s.next
            if s.last { return p }
        }
    }

    /// Writes a segment's header at `p`.
    @inline(__always)
    static func putHeader(
        _ p: UnsafeMutablePointer<UInt8>, x: Int, a: Int, f: Int, b: Int, last: Bool
    ) {
        let h =
            UInt32(truncatingIfNeeded: x) | UInt32(truncatingIfNeeded: a) << 12
            | UInt32(truncatingIfNeeded: b) << 16 | UInt32(truncatingIfNeeded: f) << 20
            | (last ? lastBit : 0)
        UnsafeMutableRawPointer(p).storeBytes(of: h.littleEndian, as: UInt32.self)
    }
}

/// Writes one row's segments (see `CoverageCache`).
enum SegmentWriter {
    /// Writes the row whose runs (`CoverageRun`, relative to the area's
    /// left edge, in order) are `runs[0..<count]`, the mask pixels' alphas
    /// in `alpha`, at `out`; returns where the code goes on.
    ///
    /// A segment takes pixels while they follow on: up to 15 partly
    /// covered ones, up to 255 fully covered ones, up to 15 partly covered
    /// ones again; then another opens. Each piece is taken at once (a copy,
    /// not a test a pixel), and the open segment's counts stay in locals
    /// until its header is written.
    static func row(
        _ runs: UnsafePointer<CoverageRun>, count: Int, alpha: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        var p = out
        // The open segment: its header's place (nil: none), first pixel,
        // counts, and the pixel after it.
        var header: UnsafeMutablePointer<UInt8>? = nil
        var (x, a, f, b, end) = (0, 0, 0, 0, 0)
        for i in 0..<count {
            let run = runs[i]
            var at = Int(truncatingIfNeeded: run.start)
            let stop = at &+ Int(truncatingIfNeeded: run.count)
            if run.alpha == 255 {
                while at < stop {
                    if header == nil || end != at || b > 0 || f == 255 {
                        if let h = header {
                            CoverageCode.putHeader(h, x: x, a: a, f: f, b: b, last: false)
                        }
                        header = p
                        p += 4
                        (x, a, f, b, end) = (at, 0, 0, 0, at)
                    }
                    let k = min(stop &- at, 255 &- f)
                    f &+= k
                    end &+= k
                    at &+= k
                }
                continue
            }
            let values: UnsafePointer<UInt8>? = run.alpha < 0 ? alpha + at : nil
            let value = UInt8(truncatingIfNeeded: run.alpha)
            var from = 0
            while at < stop {
                var room = f == 0 ? 15 &- a : 15 &- b
                if header == nil || end != at || room == 0 {
                    if let h = header {
                        CoverageCode.putHeader(h, x: x, a: a, f: f, b: b, last: false)
                    }
                    header = p
                    p += 4
                    (x, a, f, b, end) = (at, 0, 0, 0, at)
                    room = 15
                }
                let k = min(stop &- at, room)
                if f == 0 { a &+= k } else { b &+= k }
                if let values {
                    for j in 0..<k { p[j] = values[from &+ j] }
                } else {
                    for j in 0..<k { p[j] = value }
                }
                p += k
                from &+= k
                end &+= k
                at &+= k
            }
        }
        // The row's last segment says so, or an empty one does for a row with none.
        if let h = header {
            CoverageCode.putHeader(h, x: x, a: a, f: f, b: b, last: true)
        } else {
            CoverageCode.putHeader(p, x: 0, a: 0, f: 0, b: 0, last: true)
            p += 4
        }
        return p
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
        for _ in area.y..<clip.y { cursor = CoverageCode.rowAfter(cursor) }
    }

    /// The next row (`r` counts up from 0, one at a time).
    func resolveRow(_ r: Int) -> Int {
        // Locals, not properties, in the loop: no exclusivity checks.
        var p = cursor
        var out = RunWriter(runs: runs, alpha: alpha, width: bounds.width)
        while true {
            let s = CoverageCode.segment(p)
            p = s.next
            let x = left + s.x
            if x >= out.width {
                if !s.last { p = CoverageCode.rowAfter(p) }
                break
            }
            out.mask(x, s.a, s.values)
            out.constant(x + s.a, s.f, 255)
            out.mask(x + s.a + s.f, s.b, s.values + s.a)
            if s.last { break }
        }
        cursor = p
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
