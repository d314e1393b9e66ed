// The grid of directions arcs put their vertices on (`Flattener.arcVertices`).

/// Direction `k` of a grid of `n` per turn, walked one step at a time: its
/// angle `floor(k * 2^32 / n)` and its index `k mod n` kept with their
/// remainders, so a step adds and never divides (the same values as
/// dividing: an exact DDA).
struct GridWalk {
    private let n: Int64
    private let stepQ: Int64
    private let stepR: Int64
    /// `floor(k * 2^32 / n)`: the direction's angle (2^32 a turn).
    private(set) var angle: Int64
    /// `k * 2^32 - angle * n`, in `0..<n`.
    private var remainder: Int64
    /// `k mod n`.
    private(set) var index: Int

    init(k: Int64, n: Int64) {
        self.n = n
        (stepQ, stepR) = floorDivMod(1 << 32, n)
        (angle, remainder) = floorDivMod(k << 32, n)
        index = Int(floorDivMod(k, n).1)
    }

    /// Direction `k + 1`.
    @inline(__always)
    mutating func next() {
        angle &+= stepQ
        remainder &+= stepR
        if remainder >= n {
            angle &+= 1
            remainder &-= n
        }
        index = index &+ 1 == Int(n) ? 0 : index &+ 1
    }

    /// Direction `k - 1`.
    @inline(__always)
    mutating func previous() {
        angle &-= stepQ
        remainder &-= stepR
        if remainder < 0 {
            angle &-= 1
            remainder &+= n
        }
        index = index == 0 ? Int(n) &- 1 : index &- 1
    }
}

/// The unit vectors of the directions `k / n` of a turn (cos, sin in Q30,
/// interleaved), per `n`: arcs of one radius share them, so a frame looks
/// up its vertices' directions instead of interpolating sines.
final class GridDirections {
    private var tables: [Int64: [Int64]] = [:]

    func table(_ n: Int64) -> [Int64] {
        if let t = tables[n] { return t }
        if tables.count >= 64 { tables.removeAll(keepingCapacity: true) }
        var t = [Int64]()
        t.reserveCapacity(Int(2 * n))
        for k in 0..<n {
            let (cos, sin) = Angle(raw: UInt32(truncatingIfNeeded: floorDivMod(k << 32, n).0))
                .cosSinQ30
            t.append(cos)
            t.append(sin)
        }
        tables[n] = t
        return t
    }
}
