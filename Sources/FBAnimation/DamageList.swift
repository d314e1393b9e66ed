import FBRaster

/// A few rectangles covering what changed on screen.
///
/// Overlapping or touching rectangles merge; past `limit` rectangles, the two
/// whose merge adds the least area merge, so a frame's damage stays a short
/// list (cheap to clip against, cheap to copy to a display) that never
/// misses a changed pixel. The list `FrameRenderer.renderDamage` returns for
/// a buffer of age 1 is the exception: each changed shape's rectangle,
/// which may overlap another (copying a pixel twice copies the same pixel).
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
        // Swallow every rectangle this one meets, until none is left. One
        // that holds it already (a spinner's leaf inside the box of those
        // added before it) holds what it swallowed too: nothing to add.
        var i = 0
        while i < rects.count {
            let o = rects[i]
            if o.x <= r.x && o.y <= r.y && r.maxX <= o.maxX && r.maxY <= o.maxY { return }
            if o.touches(r) {
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

    /// Holds `parts` clipped to `bounds`, to present and never to draw by
    /// rectangle (`FrameDamage.presented`): rectangles here may overlap.
    /// Two merge where their box adds little to what they cover (a quarter
    /// of the smaller at most: a shape's old and new places, one inside
    /// another); past `presentLimit` rectangles, the pair whose box adds the
    /// least merges. At most `limit` parts.
    mutating func set(_ parts: [IntRect], clippedTo bounds: IntRect) {
        precondition(parts.count <= limit, "more parts than the list holds")
        rects.removeAll(keepingCapacity: true)
        for part in parts {
            let r = part.intersection(bounds)
            if !r.isEmpty { put(r) }
        }
        while rects.count > DamageList.presentLimit {
            var best = (0, 1)
            var bestWaste = Int.max
            for i in 0..<rects.count {
                for j in (i + 1)..<rects.count
                where DamageList.waste(rects[i], rects[j]) < bestWaste {
                    bestWaste = DamageList.waste(rects[i], rects[j])
                    best = (i, j)
                }
            }
            let merged = rects[best.0].union(rects[best.1])
            rects.remove(at: best.1)
            rects.remove(at: best.0)
            put(merged)
        }
    }

    /// Rectangles a presented list keeps: a spinner's twelve leaves each
    /// its own (merging more would copy less twice but cost more to find).
    static let presentLimit = 12

    /// Appends `rect`, merged with each rectangle its box adds little to.
    private mutating func put(_ rect: IntRect) {
        var r = rect
        var i = 0
        while i < rects.count {
            let o = rects[i]
            if 4 &* DamageList.waste(o, r) <= min(o.width &* o.height, r.width &* r.height) {
                r = o.union(r)
                rects.remove(at: i)
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(r)
    }

    /// The pixels in the box of `a` and `b` that neither covers.
    static func waste(_ a: IntRect, _ b: IntRect) -> Int {
        let box = a.union(b)
        let both = a.intersection(b)
        return box.width &* box.height &- a.width &* a.height &- b.width &* b.height
            &+ both.width &* both.height
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
