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

    /// The closed count of the directions an arc puts before its end equals
    /// walking them, both ways, for ends on a grid angle, a unit beside
    /// one, across zero, less than a step away and a whole turn away.
    @Test(arguments: [4, 12, 228, 4096, 65536] as [Int64])
    func theCountEqualsWalking(_ n: Int64) {
        var checked = 0
        for start in [-2 * n - 1, -1, 0, 1, n / 3, n - 1] as [Int64] {
            for forward in [true, false] {
                let from = GridWalk(k: start, n: n)
                for distance in [0, 1, 2, n / 7, n / 2, n, n + 1] as [Int64] {
                    let far = GridWalk(k: forward ? start + distance : start - distance, n: n)
                    for nudge in [-1, 0, 1] as [Int64] {
                        let e = far.angle + nudge
                        var walk = from
                        var walked = 0
                        while forward ? walk.angle < e : walk.angle > e {
                            walked += 1
                            if forward { walk.next() } else { walk.previous() }
                        }
                        #expect(
                            from.count(toward: e, forward: forward) == walked,
                            "n \(n) k \(start) e \(e) forward \(forward)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 6 * 2 * 7 * 3)
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

    /// A circle placed again is copied from `PlacedCircles`: every arc
    /// flattened the third time (kept by then) must equal the same arc
    /// flattened by a flattener that never saw it, in both directions,
    /// across the zero angle, for whole turns and a scaled, turned picture.
    @Test func keptCirclesGiveTheVerticesOfPlacingThem() {
        let transforms = [
            Transform(translation: Point(x: Fixed(400), y: Fixed(240))),
            Transform(
                scale: ScaleFactor(raw: 3 << 23), rotation: Angle(raw: 0x1234_5678),
                translation: Point(x: Fixed(raw: 5_000_123), y: Fixed(raw: -77_777))),
        ]
        let sweeps: [Int64] = [1, 1 << 20, 1 << 31, -(1 << 30) - 12345, (1 << 32) - 1, 1 << 32]
        let starts: [UInt32] = [0, 0xC000_0000, 0xFFFF_FF00, 12345]
        var checked = 0
        for transform in transforms {
            for radius in [Fixed(82), Fixed(raw: 7 << 15), Fixed(raw: 1), Fixed(2000)] {
                for start in starts {
                    for sweep in sweeps {
                        let shape = Shape.arc(
                            center: Point(x: Fixed(3), y: Fixed(-2)), radius: radius,
                            width: Fixed(16), start: Angle(raw: start),
                            sweep: AngleSpan(raw: sweep), cap: .round)
                        var fresh = Flattener()
                        fresh.flatten(shape, transform)
                        var again = Flattener()
                        for _ in 0..<3 { again.flatten(shape, transform) }
                        #expect(
                            again.polygon.rawCoordinates == fresh.polygon.rawCoordinates,
                            "radius \(radius.raw) start \(start) sweep \(sweep)")
                        #expect(again.polygon.contourEnds == fresh.polygon.contourEnds)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 192)
    }
}
