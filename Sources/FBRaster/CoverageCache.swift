/// Coverage of shapes that come back, kept resolved: a spinner's leaves take
/// the same few dozen poses every cycle, so after one cycle a leaf costs its
/// spans, not flattening, the edge walk and resolving rows again.
///
/// Each entry is one shape placed by one transform: its whole coverage
/// inside an area of the surface, row by row, in a compact code (below).
/// A fill replays it clipped to what it draws; a pixel's bytes depend only
/// on its coverage, so a replayed fill gives the bytes of a fresh one.
///
/// Entries go into one block of `budget` bytes, reserved on first use (its
/// pages count only once written) and never given back; when it is full,
/// new shapes are drawn the usual way and not kept. A shape is kept only
/// when its fill asks for it (`Rasterizer.fill(keepCoverage:)`): a shape
/// that never repeats would only fill the block.
///
/// A row is its segments, each a 32-bit header (little-endian, unaligned)
/// then `a + b` alphas. The header holds the segment's first pixel from
/// the area's left edge (bits 0-11), the counts `a` (12-15), `b` (16-19)
/// and `f` (20-27), and bit 28 on a row's last segment; a row with nothing
/// covered is one empty segment. A segment is `a` pixels of their own
/// alphas, `f` fully covered, `b` of their own alphas: the crossing of one
/// stroke (its two edges and what is between) in one step, not three. A
/// painter reads a header in one load, with no counts to decode and no
/// position to add up (a spinner's 600 frames at 800x480: 6.2M
/// instructions fewer than byte counts and gaps, about 10k a frame, for
/// about a byte more a row).
struct CoverageCache {
    struct Key: Hashable {
        var shape: Shape
        var transform: Transform
        /// For coverage reflected through a surface's centre (`HalfTurn`),
        /// its width and height (`width << 32 | height`); 0 otherwise.
        var mirror = 0

        /// The fields folded into one word, then one `combine`: SipHash
        /// field by field was most of a lookup, and a frame of the spinner
        /// makes two dozen. Of a path, its length and a few elements.
        func hash(into hasher: inout Hasher) {
            var h = Key.fold(
                UInt64(bitPattern: Int64(mirror)), UInt64(truncatingIfNeeded: transform.scale.raw),
                UInt64(transform.rotation.raw), transform.translation)
            switch shape {
            case let .disc(c, r): h = Key.fold(h &+ 1, UInt64(bitPattern: r.raw), 0, c)
            case let .annulus(c, i, o):
                h = Key.fold(h &+ 2, UInt64(bitPattern: i.raw), UInt64(bitPattern: o.raw), c)
            case let .arc(c, r, w, start, sweep, cap):
                h = Key.fold(h &+ 3, UInt64(bitPattern: r.raw), UInt64(bitPattern: w.raw), c)
                h = Key.fold(
                    h &+ (cap == .round ? 1 : 0), UInt64(start.raw),
                    UInt64(bitPattern: sweep.raw), .zero)
            case let .sector(c, r, start, sweep):
                h = Key.fold(h &+ 4, UInt64(bitPattern: r.raw), UInt64(start.raw), c)
                h = Key.fold(h, UInt64(bitPattern: sweep.raw), 0, .zero)
            case let .roundedRectStroke(c, hw, hh, corner, line):
                h = Key.fold(h &+ 5, UInt64(bitPattern: hw.raw), UInt64(bitPattern: hh.raw), c)
                h = Key.fold(h, UInt64(bitPattern: corner.raw), UInt64(bitPattern: line.raw), .zero)
            case let .path(path):
                // Its length and first and last elements: enough to tell
                // the paths a loader draws apart, for a fraction of hashing
                // them whole (folded, as the fields above: an orbit's two
                // hearts are looked up every frame).
                let elements = path.elements
                h = Key.fold(h &+ 6, UInt64(elements.count), 0, .zero)
                if let first = elements.first { h = Key.fold(h, first) }
                for element in elements.suffix(2) { h = Key.fold(h, element) }
            }
            hasher.combine(h)
        }

        /// Mixes a path element into `h`.
        @inline(__always)
        private static func fold(_ h: UInt64, _ element: Path.Element) -> UInt64 {
            switch element {
            case let .move(p): return fold(h &+ 1, 0, 0, p)
            case let .line(p): return fold(h &+ 2, 0, 0, p)
            case let .cubic(a, b, c):
                return fold(
                    fold(h &+ 3, UInt64(bitPattern: a.x.raw), UInt64(bitPattern: a.y.raw), b), 0,
                    0, c)
            case .close: return fold(h &+ 4, 0, 0, .zero)
            }
        }

        /// Mixes two words and a point into `h` (multiply and xor-shift).
        @inline(__always)
        private static func fold(_ h: UInt64, _ a: UInt64, _ b: UInt64, _ p: Point) -> UInt64 {
            @inline(__always) func mix(_ x: UInt64, _ v: UInt64) -> UInt64 {
                let y = (x ^ v) &* 0x9E37_79B9_7F4A_7C15
                return y ^ y >> 29
            }
            return mix(
                mix(mix(mix(h, a), b), UInt64(bitPattern: p.x.raw)), UInt64(bitPattern: p.y.raw))
        }
    }

    /// Compact (36 bytes: the index holds one a shape).
    struct Entry {
        private var b: (Int32, Int32, Int32, Int32)
        private var a: (Int32, Int32, Int32, Int32)
        private var start: Int32

        init(bounds: IntRect, area: IntRect, offset: Int) {
            b = (Int32(bounds.x), Int32(bounds.y), Int32(bounds.width), Int32(bounds.height))
            a = (Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
            start = Int32(offset)
        }

        /// The shape's pixel bounds (whole, not clipped).
        var bounds: IntRect {
            IntRect(x: Int(b.0), y: Int(b.1), width: Int(b.2), height: Int(b.3))
        }
        /// The pixels whose coverage is kept (the bounds inside the surface).
        var area: IntRect {
            IntRect(x: Int(a.0), y: Int(a.1), width: Int(a.2), height: Int(a.3))
        }
        /// Offset of the first row in the block.
        var offset: Int { Int(start) }
    }

    /// The widest area kept: a segment's first pixel fits its 12 bits.
    static let maxWidth = 4000

    /// Whether an entry can hold `bounds` (32-bit fields).
    static func fits(_ bounds: IntRect) -> Bool {
        let limit = 1 << 30
        return abs(bounds.x) < limit && abs(bounds.y) < limit && bounds.width < limit
            && bounds.height < limit
    }

    /// Bytes the block may hold: a spinner's 600 poses at 30 fps take 0.40
    /// MB at scale 1 and 0.79 MB at scale 2 (at 60 fps, twice as many: about
    /// half are kept). With the index, a process playing a spinner at
    /// 800x480 stays under 12 MB.
    static let defaultBudget = 896 << 10
    let budget: Int
    private var entries: [Key: Entry] = [:]
    private var block: UnsafeMutablePointer<UInt8>?
    private var used = 0
    /// Where the entry being written started, while one is.
    private var pending: (key: Key, entry: Entry)?
    /// Bytes of the outlines the index holds in path keys, each path's
    /// storage counted once (an orbit's heart in all its places is one):
    /// part of the budget, or a stream of one-off paths (a splash's
    /// messages) would keep megabytes of outlines behind a few bytes of
    /// rows each (Scripts/soak.sh: 34 MB over 10^6 frames).
    private var pathBytes = 0
    private var chargedPaths: Set<UInt> = []
    /// The outline the pending entry would add, if it is a new one.
    private var pendingPath: (address: UInt, bytes: Int)?

    init(budget: Int = CoverageCache.defaultBudget) { self.budget = budget }

    /// Frees the block (the owner's `deinit`).
    func release() { block?.deallocate() }

    var isEmpty: Bool { entries.isEmpty }
    var bytesUsed: Int { used }
    /// Bytes of the entry being written (0 when none is).
    var pendingBytes: Int { pending.map { used - $0.entry.offset } ?? 0 }
    var count: Int { entries.count }

    func entry(_ key: Key) -> Entry? { entries.isEmpty ? nil : entries[key] }

    func rows(of entry: Entry) -> UnsafePointer<UInt8> { UnsafePointer(block! + entry.offset) }

    /// Starts an entry for `key` covering `area`; rows follow with `append`.
    /// `false` when the block cannot hold even its row headers.
    mutating func begin(_ key: Key, bounds: IntRect, area: IntRect) -> Bool {
        precondition(
            area.width <= CoverageCache.maxWidth && CoverageCache.fits(bounds), "cannot keep")
        if block == nil { block = .allocate(capacity: budget) }
        let path = newPath(key)
        guard used + pathBytes + (path?.bytes ?? 0) + 4 * area.height <= budget else {
            return false
        }
        pending = (key, Entry(bounds: bounds, area: area, offset: used))
        pendingPath = path
        return true
    }

    /// The storage of `key`'s path when no entry holds it yet: where, and its bytes.
    private func newPath(_ key: Key) -> (address: UInt, bytes: Int)? {
        guard case let .path(path) = key.shape, !path.elements.isEmpty else { return nil }
        let address = path.elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        if chargedPaths.contains(address) { return nil }
        return (address, path.elements.capacity * MemoryLayout<Path.Element>.stride)
    }

    /// Appends one resolved row (`runs` relative to the area's left edge,
    /// `alpha` the row's mask pixels). `false` when the block is full: the
    /// entry is dropped.
    mutating func append(
        runs: UnsafePointer<CoverageRun>, count: Int, alpha: UnsafePointer<UInt8>
    ) -> Bool {
        guard pending != nil, let block else { return false }
        // At most a byte a pixel, and each run opens at most 2 + n / 15
        // segments of 4 bytes of header; an empty row is one.
        var need = 4
        for i in 0..<count { need += 10 + Int(runs[i].count) * 2 }
        guard used + pathBytes + (pendingPath?.bytes ?? 0) + need <= budget else {
            abandon()
            return false
        }
        used = SegmentWriter.row(runs, count: count, alpha: alpha, into: block + used) - block
        return true
    }

    /// Appends a row of code that `write` puts at the pointer it is given
    /// (at most `maxBytes`; it returns how many): `false`, and the entry
    /// abandoned, when the budget cannot hold that many.
    mutating func appendRow(
        maxBytes: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int
    ) -> Bool {
        guard pending != nil, let block else { return false }
        guard used + pathBytes + (pendingPath?.bytes ?? 0) + maxBytes <= budget else {
            abandon()
            return false
        }
        let length = write(block + used)
        precondition(length <= maxBytes, "a row wrote more than it said")
        used += length
        return true
    }

    /// Ends the entry begun last, keeping it.
    mutating func commit() {
        guard let (key, entry) = pending else { return }
        entries[key] = entry
        pending = nil
        if let path = pendingPath {
            chargedPaths.insert(path.address)
            pathBytes += path.bytes
            pendingPath = nil
        }
    }

    /// Drops the entry begun last and its rows.
    mutating func abandon() {
        guard let (_, entry) = pending else { return }
        used = entry.offset
        pending = nil
        pendingPath = nil
    }
}

/// Coverage a `RasterCache` keeps for one shape, transform and surface
/// size, as `Rasterizer.keptBounds` found it: its fill paints it without
/// a second look-up. Entries are never dropped, so it stays good.
package struct KeptCoverage {
    let entry: CoverageCache.Entry

    init(_ entry: CoverageCache.Entry) { self.entry = entry }
}
