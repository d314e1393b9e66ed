import Testing

@testable import FBRaster

/// The arc flattener's division-free walk over its grid of directions, and
/// the 32-bit path of `floorDivMod`: both must give the values dividing in
/// 64 bits gives, or vertices (and so pixels) would move.
@Suite struct ArcGridTests {
    /// Every step of a walk, forwards and backwards, from starts on both
    /// sides of zero and across several turns, for the grid sizes arcs use
    /// (4 to 2^16 chords a turn).
    @Test(arguments: [4, 12, 96, 228, 1000, 4096, 65536] as [Int64])
    func theWalkEqualsDividing(_ n: Int64) {
        for start in [-3 * n - 1, -1, 0, 1, n - 1, 5 * n + 2] as [Int64] {
            var up = GridWalk(k: start, n: n)
            var down = GridWalk(k: start, n: n)
            for step in 0..<Int64(min(3 * n, 5000)) {
                let (k1, k2) = (start + step, start - step)
                #expect(up.angle == floorDivMod(k1 << 32, n).0, "n \(n) k \(k1)")
                #expect(up.index == Int(floorDivMod(k1, n).1), "n \(n) k \(k1)")
                #expect(down.angle == floorDivMod(k2 << 32, n).0, "n \(n) k \(k2)")
                #expect(down.index == Int(floorDivMod(k2, n).1), "n \(n) k \(k2)")
                if up.angle != floorDivMod(k1 << 32, n).0 { return }
                up.next()
                down.previous()
            }
        }
    }

    /// Quotients and remainders at the edges of the 32-bit path and past it.
    @Test func floorDivModIsFloorDivision() {
        let edges: [Int64] = [
            0, 1, -1, 255, 256, -256, Int64(Int32.max), Int64(Int32.max) + 1, Int64(Int32.min),
            Int64(Int32.min) - 1, 1 << 40, -(1 << 40) - 7,
        ]
        for n in edges {
            for d in [1, 2, 3, 255, 256, 65535, Int64(Int32.max), Int64(Int32.max) + 1, 1 << 33] {
                let (q, r) = floorDivMod(n, d)
                #expect(r >= 0 && r < d, "\(n) / \(d)")
                #expect(q * d + r == n, "\(n) / \(d)")
            }
        }
    }
}
