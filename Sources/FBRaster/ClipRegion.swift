/// A set of rectangles to draw inside: the damage of a frame.
///
/// Rectangles may overlap; a pixel inside several is still painted once,
/// because each row is clipped to the union of the rectangles' spans on it.
public struct ClipRegion: Sendable {
    /// The rectangles, sorted by `x`, none empty.
    public private(set) var rects: [IntRect]
    /// The smallest rectangle holding them all.
    public private(set) var bounds: IntRect

    public init(_ rects: [IntRect]) {
        let kept = rects.filter { !$0.isEmpty }.sorted { $0.x < $1.x }
        self.rects = kept
        bounds = kept.dropFirst().reduce(kept.first ?? IntRect(x: 0, y: 0, width: 0, height: 0)) {
            $0.union($1)
        }
    }

    public var isEmpty: Bool { rects.isEmpty }

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
