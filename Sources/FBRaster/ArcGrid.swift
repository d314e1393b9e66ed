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
    /// The direction's number.
    private(set) var k: Int64

    init(k: Int64, n: Int64) {
        self.n = n
        self.k = k
        (stepQ, stepR) = floorDivMod(1 << 32, n)
        (angle, remainder) = floorDivMod(k << 32, n)
        index = Int(floorDivMod(k, n).1)
    }

    /// Direction `k + 1`.
    @inline(__always)
    mutating func next() {
        k &+= 1
        angle &+= stepQ
        remainder &+= stepR
        if remainder >= n {
            angle &+= 1
            remainder &-= n
        }
        index = index &+ 1 == Int(n) ? 0 : index &+ 1
    }

    /// How many directions from this one on (itself included) lie strictly
    /// before angle `e` (2^32 a turn, any multiple of turns) going forward,
    /// or strictly after it going back: the vertices an arc ending at `e`
    /// puts from here. The walk's own count (`next()` while `angle < e`,
    /// or `previous()` while `angle > e`) without walking.
    @inline(__always)
    func count(toward e: Int64, forward: Bool) -> Int {
        if forward {
            // Directions k with floor(k 2^32 / n) < e: k < e n / 2^32.
            let end = floorDivMod(e * n + (1 << 32) - 1, 1 << 32).0
            return Int(max(end - k, 0))
        }
        // Directions k with floor(k 2^32 / n) > e: k >= (e + 1) n / 2^32.
        let low = floorDivMod((e + 1) * n + (1 << 32) - 1, 1 << 32).0
        return Int(max(k - low + 1, 0))
    }

    /// Direction `k - 1`.
    @inline(__always)
    mutating func previous() {
        k &-= 1
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

/// The vertices of the last few circles placed again and again (a centre,
/// radius and grid in device space), each as `deviceVertex` would put them (24.8,
/// clamped) in grid order, forwards and backwards: a ring's growing arc
/// places the same two circles every frame, and copying its part of them
/// costs a fraction of placing each vertex. A circle is kept once the arcs
/// asked of it add up to twice its vertices (when keeping it has paid
/// off), so circles that move (a spinner's leaves, a round cap at a growing
/// end) cost only a few comparisons, never a whole circle. Circles of more
/// than `maxChords` (a radius over about 1,600 px) are not kept: 8 of them
/// then stay under 300 KB.
struct PlacedCircles {
    struct Key: Equatable {
        var x: Int64
        var y: Int64
        var radius: Int64
        var n: Int64
    }

    /// Kept circles, the newest last.
    private var kept: [(key: Key, forward: [Int64], backward: [Int64])] = []
    /// Circles asked for recently (a ring of `capacity`) and the vertices
    /// asked of them so far.
    private var seen: [(key: Key, vertices: Int64)] = []
    private var nextSeen = 0
    private let capacity = 8
    static let maxChords: Int64 = 1024

    /// The vertices of the circle of `radius` (device 16.16) about
    /// `center` (device) on the grid of `n` directions `unit`, interleaved
    /// x, y in 24.8, in direction order (`forward`) or the reverse, for an
    /// arc of about `count` of them; `nil` when the circle is not kept (the
    /// caller places its vertices itself).
    mutating func vertices(
        _ center: Point, _ radius: Int64, _ n: Int64, _ unit: [Int64], forward: Bool,
        count: Int64
    ) -> [Int64]? {
        if n > PlacedCircles.maxChords { return nil }
        let key = Key(x: center.x.raw, y: center.y.raw, radius: radius, n: n)
        if let i = kept.lastIndex(where: { $0.key == key }) {
            return forward ? kept[i].forward : kept[i].backward
        }
        if let i = seen.firstIndex(where: { $0.key == key }) {
            seen[i].vertices += count
            if seen[i].vertices < 2 * n { return nil }
        } else {
            if seen.count < capacity {
                seen.append((key, count))
            } else {
                seen[nextSeen] = (key, count)
                nextSeen = (nextSeen + 1) % capacity
            }
            return nil
        }
        func circle(from first: Int, forward: Bool) -> [Int64] {
            [Int64](unsafeUninitializedCapacity: Int(2 * n)) { buffer, written in
                writeGridVertices(
                    buffer.baseAddress!, count: Int(n), from: first, n: Int(n), forward: forward,
                    center: center, radius: radius, unit: unit, fixedPoint: false)
                written = Int(2 * n)
            }
        }
        let ahead = circle(from: 0, forward: true)
        let back = circle(from: Int(n) - 1, forward: false)
        if kept.count >= capacity { kept.removeFirst() }
        kept.append((key, ahead, back))
        return forward ? ahead : back
    }
}

/// Writes `count` vertices of the circle of device `center` and `radius`
/// (16.16) at the directions of grid `unit` (`n` unit vectors, cos and sin
/// in Q30), from index `first`, forward or back, to `out` (x and y
/// interleaved) as `Flattener.deviceVertex` puts them: raw 16.16 with
/// `fixedPoint`, else 24.8, clamped.
@inline(__always)
func writeGridVertices(
    _ out: UnsafeMutablePointer<Int64>, count: Int, from first: Int, n: Int, forward: Bool,
    center: Point, radius: Int64, unit: UnsafePointer<Int64>, fixedPoint: Bool
) {
    let (cx, cy) = (center.x.raw, center.y.raw)
    var i = first
    for j in 0..<count {
        let x = cx + mulShiftRounded30(radius, unit[2 * i])
        let y = cy + mulShiftRounded30(radius, unit[2 * i + 1])
        // The loop over every vertex: raw values (see `Polygon`).
        out[2 * j] = fixedPoint ? x : Subpixel(clamping: Fixed(raw: x)).raw
        out[2 * j + 1] = fixedPoint ? y : Subpixel(clamping: Fixed(raw: y)).raw
        if forward {
            i = i &+ 1 == n ? 0 : i &+ 1
        } else {
            i = i == 0 ? n &- 1 : i &- 1
        }
    }
}

extension Polygon<Subpixel> {
    /// Appends `count` vertices of a placed circle's `vertices` (x, y
    /// interleaved, `n` of them) from vertex `first`, going round past the end.
    mutating func appendCircleVertices(_ vertices: [Int64], from first: Int, count: Int) {
        let n = vertices.count / 2
        var i = first
        var left = count
        while left > 0 {
            let run = min(left, n - i)
            rawCoordinates.append(contentsOf: vertices[(2 * i)..<(2 * (i + run))])
            left -= run
            i = 0
        }
    }
}
