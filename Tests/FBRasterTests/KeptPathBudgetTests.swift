import Testing

@testable import FBRaster

/// The outlines a kept path holds count in the coverage budget: found by
/// Scripts/soak.sh, where a splash given a new message every 20 ms grew by
/// 34 MB over 10^6 radar frames (each message's outline kept in the index
/// behind a few hundred bytes of rows).
@Suite struct KeptPathBudgetTests {
    /// A path of `count` line elements inside a 4x1 pixel box, told apart by `tag`.
    static func longPath(_ count: Int, tag: Int) -> Path {
        var p = Path()
        p.move(to: Point(x: Fixed(0), y: Fixed(0)))
        for k in 0..<count { p.line(to: Point(x: Fixed(k % 4), y: Fixed(raw: Int64(tag)))) }
        p.close()
        return p
    }

    /// Keeps `key` with one empty row; whether it was kept.
    static func keep(_ key: CoverageCache.Key, in cache: inout CoverageCache) -> Bool {
        let box = IntRect(x: 0, y: 0, width: 4, height: 1)
        guard cache.begin(key, bounds: box, area: box) else { return false }
        let runs = UnsafeMutablePointer<CoverageRun>.allocate(capacity: 1)
        let alpha = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
        defer {
            runs.deallocate()
            alpha.deallocate()
        }
        guard cache.append(runs: runs, count: 0, alpha: alpha) else { return false }
        cache.commit()
        return true
    }

    @Test func distinctPathsSpendTheBudget() {
        let budget = 64 << 10
        var cache = CoverageCache(budget: budget)
        defer { cache.release() }
        for tag in 0..<100 {
            _ = Self.keep(
                .init(shape: .path(Self.longPath(500, tag: tag)), transform: .identity), in: &cache)
        }
        // 500 elements are 500 * 56 bytes or more: at most two fit.
        let elementBytes = 500 * MemoryLayout<Path.Element>.stride
        #expect(cache.count >= 1 && cache.count <= budget / elementBytes)
    }

    @Test func onePathPlacedManyTimesIsChargedOnce() {
        var cache = CoverageCache(budget: 64 << 10)
        defer { cache.release() }
        let heart = Self.longPath(500, tag: 0)
        for i in 0..<100 {
            let key = CoverageCache.Key(
                shape: .path(heart), transform: .translation(Fixed(i), Fixed(0)))
            #expect(Self.keep(key, in: &cache))
        }
        #expect(cache.count == 100)
    }
}
