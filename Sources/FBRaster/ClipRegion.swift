/// A set of rectangles to draw inside: the damage of a frame.
///
/// Rectangles may overlap; a pixel inside several is still painted once,
/// because each row is clipped to the union of the rectangles' spans on it.
public struct ClipRegion: Sendable {
    /// The rectangles, sorted by `x`, none empty.
    public private(set) var rects: [IntRect]
    /// The smallest rectangle holding them all.
    public private(set) var bounds: IntRect

    public init(_ rects: [IntRect] = []) {
        self.rects = []
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
        set(rects, within: nil)
    }

    /// Replaces the rectangles (each cut to `limit` when given), reusing
    /// storage: a warm region allocates nothing.
    public mutating func set(_ new: [IntRect], within limit: IntRect?) {
        rects.removeAll(keepingCapacity: true)
        bounds = IntRect(x: 0, y: 0, width: 0, height: 0)
        for var r in new {
            if let limit { r = r.intersection(limit) }
            if r.isEmpty { continue }
            // Insertion sort by x: a region holds a handful of rectangles.
            var i = rects.count
            rects.append(r)
            while i > 0 && rects[i - 1].x > r.x {
                rects[i] = rects[i - 1]
                i -= 1
            }
            rects[i] = r
            bounds = bounds.union(r)
        }
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// Whether any rectangle of the region overlaps `rect`.
    public func meets(_ rect: IntRect) -> Bool {
        for r in rects where !r.intersection(rect).isEmpty { return true }
        return false
    }

    /// The pixels of the region.
    public var area: Int {
        // Exact for disjoint rectangles; an upper bound otherwise.
        rects.reduce(0) { $0 + $1.width * $1.height }
    }

    /// Writes the union of the rectangles' spans on row `y` as `[start, end)`
    /// pairs, in order and disjoint, into `spans`; returns how many.
    func spans(onRow y: Int, into spans: UnsafeMutablePointer<(Int, Int)>) -> Int {
        var n = 0
        for r in rects where y >= r.y && y < r.maxY {
            if n > 0 && r.x <= spans[n - 1].1 {
                spans[n - 1].1 = max(spans[n - 1].1, r.maxX)
            } else {
                spans[n] = (r.x, r.maxX)
                n += 1
            }
        }
        return n
    }
}

extension IntRect {
    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = Swift.min(x, o.x)
        let y0 = Swift.min(y, o.y)
        let x1 = Swift.max(maxX, o.maxX)
        let y1 = Swift.max(maxY, o.maxY)
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle grown by `d` pixels on every side.
    public func outset(by d: Int) -> IntRect {
        IntRect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }
}
