import Testing
import _FBTestSupport

@testable import FBRaster

/// `PaintedBlocks` against a plain model: one Bool a block.
@Suite struct PaintedBlocksTests {
    struct Model {
        let width: Int
        let height: Int
        var marked: [[Bool]]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            marked = Array(
                repeating: Array(repeating: true, count: (width + 3) / 4), count: height)
        }

        func isMarked(x: Int, y: Int, or other: Model?) -> Bool {
            marked[y][x / 4] || (other?.marked[y][x / 4] ?? false)
        }
    }

    @Test func marksAndRunsMatchAModel() {
        var rng = SeededRandom(seed: 4)
        for trial in 0..<30 {
            let w = Int.random(in: 1...700, using: &rng)
            let h = Int.random(in: 1...40, using: &rng)
            let maps = [PaintedBlocks(width: w, height: h), PaintedBlocks(width: w, height: h)]
            var models = [Model(width: w, height: h), Model(width: w, height: h)]
            func randomRect() -> IntRect {
                let x = Int.random(in: -10...w, using: &rng)
                let y = Int.random(in: -3...h, using: &rng)
                return IntRect(
                    x: x, y: y, width: Int.random(in: 0...(w + 10), using: &rng),
                    height: Int.random(in: 0...(h + 3), using: &rng))
            }
            for _ in 0..<80 {
                let k = Int.random(in: 0...1, using: &rng)
                switch Int.random(in: 0..<10, using: &rng) {
                case 0:
                    maps[k].markAll()
                    models[k] = Model(width: w, height: h)
                case 1:
                    maps[k].copy(from: maps[1 - k])
                    models[k] = models[1 - k]
                case 2...4:
                    let r = randomRect()
                    maps[k].unmark(inside: r)
                    let c = r.intersection(IntRect(x: 0, y: 0, width: w, height: h))
                    if c.isEmpty { break }
                    for y in c.y..<c.maxY {
                        for b in 0..<models[k].marked[y].count
                        where 4 * b >= c.x && min(4 * b + 4, w) <= c.maxX {
                            models[k].marked[y][b] = false
                        }
                    }
                case 5:
                    // A word of a row's blocks from a block on.
                    let y = Int.random(in: 0..<h, using: &rng)
                    let count = (w + 3) / 4
                    let from = Int.random(in: 0..<count, using: &rng)
                    let first = Int.random(in: 0..<64, using: &rng)
                    let last = Int.random(in: first..<64, using: &rng)
                    maps[k].mark(
                        y: y, fromBlock: from, blocks: PaintedBlocks.blocks(first, through: last))
                    for b in (from + first)...(from + last) where b < count {
                        models[k].marked[y][b] = true
                    }
                default:
                    let y = Int.random(in: 0..<h, using: &rng)
                    let x = Int.random(in: 0..<w, using: &rng)
                    let n = Int.random(in: 1...(w - x), using: &rng)
                    maps[k].mark(y: y, x: x, count: n)
                    for b in (x / 4)...((x + n - 1) / 4) { models[k].marked[y][b] = true }
                }
                // Runs of one map, and of both, with and without joining.
                let rect = randomRect()
                let join = Int.random(in: 1...3, using: &rng)
                let other: Int? = Bool.random(using: &rng) ? 1 - k : nil
                var got = Array(repeating: Array(repeating: 0, count: w), count: h)
                var lastEnd = (y: -1, x: -1)
                maps[k].forEachMarkedRun(in: rect, or: other.map { maps[$0] }, join: join) {
                    y, x, n in
                    #expect(n > 0 && x >= rect.x && x + n <= rect.maxX)
                    #expect(y > lastEnd.y || x > lastEnd.x, "runs in order, apart")
                    lastEnd = (y, x + n)
                    for i in x..<(x + n) { got[y][i] += 1 }
                }
                let clip = rect.intersection(IntRect(x: 0, y: 0, width: w, height: h))
                var wrong = 0
                var marked = 0
                var total = 0
                for y in 0..<h {
                    for x in 0..<w {
                        let inside =
                            !clip.isEmpty && clip.y <= y && y < clip.maxY
                            && clip.x <= x && x < clip.maxX
                        let m = models[k].isMarked(x: x, y: y, or: other.map { models[$0] })
                        // Every marked pixel once; with join 1 nothing else.
                        if inside && m && got[y][x] != 1 { wrong += 1 }
                        if !inside && got[y][x] != 0 { wrong += 1 }
                        if inside && !m && join == 1 && got[y][x] != 0 { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "trial \(trial): \(wrong) pixels wrong")
                // isSparse counts blocks on every fourth row of the rectangle.
                if !clip.isEmpty {
                    let first = clip.x / 4
                    let end = (clip.maxX + 3) / 4
                    for y in stride(from: clip.y, to: clip.maxY, by: 4) {
                        for b in first..<end {
                            total += 1
                            if models[k].marked[y][b]
                                || (other.map { models[$0].marked[y][b] } ?? false)
                            {
                                marked += 1
                            }
                        }
                    }
                    let percent = Int.random(in: 0...100, using: &rng)
                    #expect(
                        maps[k].isSparse(in: rect, or: other.map { maps[$0] }, percent: percent)
                            == (100 * marked <= percent * total), "trial \(trial)")
                }
            }
        }
    }

    /// A row's spans gathered by `RowMarks` mark the blocks one call a span would.
    @Test func rowMarksMarkTheBlocksOfTheirSpans() {
        var rng = SeededRandom(seed: 9)
        for trial in 0..<200 {
            let w = Int.random(in: 1...1500, using: &rng)
            let map = PaintedBlocks(width: w, height: 2)
            map.unmark(inside: IntRect(x: 0, y: 0, width: w, height: 2))
            var expected = Array(repeating: false, count: (w + 3) / 4)
            var row = RowMarks()
            var x = Int.random(in: 0..<w, using: &rng)
            while x < w {
                let n = min(Int.random(in: 1...(trial % 2 == 0 ? 12 : 400), using: &rng), w - x)
                row.add(x, x + n, 1, map)
                for b in (x / 4)...((x + n - 1) / 4) { expected[b] = true }
                x += n + Int.random(in: 0...(trial % 3 == 0 ? 300 : 9), using: &rng)
            }
            row.flush(1, map)
            var got = Array(repeating: false, count: (w + 3) / 4)
            map.forEachMarkedRun(in: IntRect(x: 0, y: 0, width: w, height: 2)) { y, x, n in
                #expect(y == 1, "only the row marked")
                for b in (x / 4)...((x + n - 1) / 4) { got[b] = true }
            }
            let wrong = zip(got, expected).filter { $0 != $1 }.count
            #expect(wrong == 0, "trial \(trial), width \(w): \(wrong) blocks wrong")
        }
    }
}
