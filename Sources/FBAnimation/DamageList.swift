import FBRaster

/// A few rectangles covering what changed on screen.
///
/// Overlapping or touching rectangles merge; past `limit` rectangles, the two
/// whose merge adds the least area merge, so a frame's damage stays a short
/// list (cheap to clip against, cheap to copy to a display) that never
/// misses a changed pixel.
public struct DamageList: Sendable, Equatable {
    public private(set) var rects: [IntRect] = []
    public let limit: Int

    public init(limit: Int = 8) {
        self.limit = limit
        rects.reserveCapacity(limit + 1)
    }

    public var isEmpty: Bool { rects.isEmpty }

    /// Pixels covered (each counted once where rectangles overlap only if they
    /// were merged; an upper bound otherwise).
    public var area: Int { rects.reduce(0) { $0 + $1.width * $1.height } }

    public mutating func removeAll() { rects.removeAll(keepingCapacity: true) }

    public mutating func add(_ rect: IntRect) {
        if rect.isEmpty { return }
        var r = rect
        // Swallow every rectangle this one meets, until none is left.
        var i = 0
        while i < rects.count {
            if rects[i].touches(r) {
                r = r.union(rects.remove(at: i))
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(r)
        while rects.count > limit { mergeCheapestPair() }
    }

    /// Keeps only what lies inside `bounds` (the screen): a change off the
    /// screen is no change. Allocates nothing.
    public mutating func clip(to bounds: IntRect) {
        var i = 0
        while i < rects.count {
            let r = rects[i].intersection(bounds)
            if r.isEmpty {
                rects.remove(at: i)
            } else {
                rects[i] = r
                i += 1
            }
        }
    }

    public mutating func add(_ other: DamageList) {
        for r in other.rects { add(r) }
    }

    private mutating func mergeCheapestPair() {
        var best = (0, 1)
        var bestCost = Int.max
        for i in 0..<rects.count {
            for j in (i + 1)..<rects.count {
                let u = rects[i].union(rects[j])
                let cost =
                    u.width * u.height - rects[i].width * rects[i].height
                    - rects[j].width * rects[j].height
                if cost < bestCost {
                    bestCost = cost
                    best = (i, j)
                }
            }
        }
        let merged = rects[best.0].union(rects[best.1])
        rects.remove(at: best.1)
        rects.remove(at: best.0)
        add(merged)
    }
}

extension IntRect {
    /// Whether the rectangles overlap or share an edge.
    func touches(_ o: IntRect) -> Bool {
        x <= o.maxX && o.x <= maxX && y <= o.maxY && o.y <= maxY
    }
}
