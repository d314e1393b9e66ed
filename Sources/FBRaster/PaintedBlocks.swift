/// Where a frame may differ from its still picture (the background and the
/// shapes that stay put), in blocks of 4 pixels of one row.
///
/// A fill given a map (`Rasterizer.fill(marking:)`) marks the blocks its
/// runs paint. A damage-only frame then converts to a 16-bit target (or
/// copies from a still layer) only the marked blocks of its damage, not the
/// whole rectangles: a spinner's damage is the box around twelve thin
/// leaves, and most of it stays background.
package final class PaintedBlocks {
    package let width: Int
    package let height: Int
    /// 64-bit words per row.
    let words: Int
    private let bits: UnsafeMutablePointer<UInt64>

    /// A map of `width` x `height` pixels with every block marked.
    package init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "size must be positive")
        self.width = width
        self.height = height
        words = (width + 4 * 64 - 1) / (4 * 64)
        bits = .allocate(capacity: words * height)
        markAll()
    }

    deinit { bits.deallocate() }

    /// Marks every block: a frame of unknown contents.
    package func markAll() { bits.update(repeating: ~0, count: words * height) }

    /// Unmarks every block: a frame that is all still picture.
    package func unmarkAll() { bits.update(repeating: 0, count: words * height) }

    package func copy(from other: PaintedBlocks) {
        precondition(other.words == words && other.height == height, "sizes differ")
        bits.update(from: other.bits, count: words * height)
    }

    /// Unmarks the blocks that lie wholly inside `rect` (blocks at the
    /// right edge of the map count as ending there).
    package func unmark(inside rect: IntRect) {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        if r.isEmpty { return }
        let first = (r.x + 3) >> 2
        let end = r.maxX == width ? (width + 3) >> 2 : r.maxX >> 2
        if first >= end { return }
        // A word of blocks at a time, down the rows: the mask is made once
        // a word, not once a row (a heart's rectangle: one or two words).
        for w in (first >> 6)...((end &- 1) >> 6) {
            let lo = max(first &- w << 6, 0)
            let hi = min(end &- w << 6, 64)
            let keep = ~PaintedBlocks.blocks(lo, through: hi &- 1)
            var p = bits + (r.y &* words &+ w)
            for _ in r.y..<r.maxY {
                p.pointee &= keep
                p += words
            }
        }
    }

    /// Marks the blocks of `count` pixels from `x` on row `y` (inside the map).
    @inline(__always)
    func mark(y: Int, x: Int, count: Int) {
        PaintedBlocks.apply(bits + y * words, x >> 2, (x + count + 3) >> 2, set: true)
    }

    /// Marks the blocks of row `y` whose bits `blocks` sets, bit `i`
    /// standing for block `from + i` (`from` inside the map): a row's
    /// marks gathered in a word, then put in the map at once.
    @inline(__always)
    func mark(y: Int, fromBlock from: Int, blocks: UInt64) {
        let row = bits + y &* words
        let word = from >> 6
        let shift = UInt64(from & 63)
        row[word] |= blocks << shift
        if shift != 0 && word &+ 1 < words { row[word &+ 1] |= blocks >> (64 &- shift) }
    }

    /// A word with bits `first...last` set (`0 <= first <= last < 64`).
    @inline(__always)
    static func blocks(_ first: Int, through last: Int) -> UInt64 {
        assert(0 <= first && first <= last && last < 64, "blocks outside a word")
        // Both amounts are in 0...63: masking shifts, no overshift checks.
        return ((~0 as UInt64) &>> UInt64(63 &- (last &- first))) &<< UInt64(first)
    }

    /// Sets or clears blocks `first..<end` of one row.
    @inline(__always)
    private static func apply(
        _ row: UnsafeMutablePointer<UInt64>, _ first: Int, _ end: Int, set: Bool
    ) {
        if first >> 6 == (end &- 1) >> 6 {
            // Within one word (a short run): one mask.
            let span = ((~0 as UInt64) >> UInt64(64 &- (end &- first))) << UInt64(first & 63)
            if set { row[first >> 6] |= span } else { row[first >> 6] &= ~span }
            return
        }
        var b = first
        while b < end {
            let word = b >> 6
            let lo = b & 63
            let hi = min(64, lo + end - b)
            let span: UInt64 = hi - lo == 64 ? ~0 : ((1 << UInt64(hi - lo)) - 1) << UInt64(lo)
            if set { row[word] |= span } else { row[word] &= ~span }
            b += hi - lo
        }
    }

    /// Whether any block `rect` touches is marked: a plain pass over its
    /// words, for a map that is seldom marked.
    package func anyMarked(in rect: IntRect) -> Bool {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        if r.isEmpty { return false }
        let first = r.x >> 2
        let last = (r.maxX &- 1) >> 2
        let (w0, w1) = (first >> 6, last >> 6)
        // The first and last words' blocks inside the rectangle.
        let head: UInt64 = ~0 << UInt64(first & 63)
        let tail: UInt64 = ~0 >> UInt64(63 &- (last & 63))
        var any: UInt64 = 0
        for y in r.y..<r.maxY {
            let row = bits + y &* words
            if w0 == w1 {
                any |= row[w0] & head & tail
            } else {
                any |= row[w0] & head | row[w1] & tail
                for w in (w0 &+ 1)..<w1 { any |= row[w] }
            }
        }
        return any != 0
    }

    /// Whether at most `percent` % of the blocks `rect` touches are marked
    /// here or in `other` (counted on every fourth row: a shape's marks
    /// change little from row to row, and every other row cost an orbit 3 %
    /// of its instructions at scale 2): then working run by run beats
    /// working on the whole rectangle. Either way is correct.
    package func isSparse(
        in rect: IntRect, or other: PaintedBlocks? = nil, percent: Int = 50
    ) -> Bool {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        if r.isEmpty { return false }
        let first = r.x >> 2
        let end = (r.maxX + 3) >> 2
        let both = other?.bits ?? bits
        var marked = 0
        var total = 0
        for w in (first >> 6)...((end - 1) >> 6) {
            let lo = max(first - w << 6, 0)
            let hi = min(end - w << 6, 64)
            let mask: UInt64 = hi - lo == 64 ? ~0 : ((1 << UInt64(hi - lo)) - 1) << UInt64(lo)
            var y = r.y
            while y < r.maxY {
                let i = y * words + w
                marked += ((bits[i] | both[i]) & mask).nonzeroBitCount
                y += 4
            }
            total += (hi - lo) * ((r.height + 3) / 4)
        }
        return 100 * marked <= percent * total
    }

    /// Calls `body(y, x, count)` for each run of pixels of `rect` in a block
    /// marked here or in `other`, row by row, left to right. Runs less than
    /// `join` blocks apart are joined (with the pixels between), for work
    /// that costs less a pixel than a call.
    package func forEachMarkedRun(
        in rect: IntRect, or other: PaintedBlocks? = nil, join: Int = 1,
        _ body: (Int, Int, Int) -> Void
    ) {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        if r.isEmpty { return }
        let firstBlock = r.x >> 2
        let endBlock = (r.maxX + 3) >> 2
        let firstWord = firstBlock >> 6
        let lastWord = (endBlock - 1) >> 6
        // The blocks of the first and last words inside the rectangle.
        let headMask: UInt64 = ~0 << UInt64(firstBlock & 63)
        let tailMask: UInt64 = ~0 >> UInt64(63 - ((endBlock - 1) & 63))
        // A map ORed with itself is itself: no branch for a missing `other`.
        let both = other?.bits ?? bits
        // The run found last on a row, not yet given to `body` (-1: none).
        var pending = -1
        var pendingEnd = -1
        @inline(__always) func run(_ y: Int, _ start: Int, _ end: Int) {
            if pending >= 0 && start - pendingEnd < join {
                pendingEnd = end
                return
            }
            flush(y)
            (pending, pendingEnd) = (start, end)
        }
        @inline(__always) func flush(_ y: Int) {
            if pending < 0 { return }
            let x0 = max(pending << 2, r.x)
            let x1 = min(pendingEnd << 2, r.maxX)
            if x1 > x0 { body(y, x0, x1 - x0) }
            pending = -1
        }
        for y in r.y..<r.maxY {
            let row = y * words
            // The first block of the run that reaches the word in hand (-1: none).
            var open = -1
            for w in firstWord...lastWord {
                var word = bits[row + w] | both[row + w]
                if w == firstWord { word &= headMask }
                if w == lastWord { word &= tailMask }
                // Walk the word's changes from marked to not and back, from
                // bit `from` (0...63) on.
                var from = 0
                while true {
                    if open >= 0 {
                        let unmarked = (~word &>> UInt64(from)) &<< UInt64(from)
                        if unmarked == 0 { break }
                        let end = unmarked.trailingZeroBitCount
                        run(y, open, w << 6 + end)
                        open = -1
                        from = end
                    }
                    let marked = (word &>> UInt64(from)) &<< UInt64(from)
                    if marked == 0 { break }
                    from = marked.trailingZeroBitCount
                    open = w << 6 + from
                }
            }
            if open >= 0 { run(y, open, endBlock) }
            flush(y)
        }
    }
}
