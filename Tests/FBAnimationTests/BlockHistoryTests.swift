import FBRaster
import Testing

@testable import FBAnimation

/// A frame drawn over the one in its buffer takes that frame's blocks map
/// over, marks and all, with no copy; the frame it came from has none after.
@Suite struct BlockHistoryTests {
    /// Frames 1, 2, 3 kept over still picture 7, each map with one block of
    /// its own unmarked (row `frame`), the rest marked.
    private func history() -> (BlockHistory, [PaintedBlocks]) {
        let history = BlockHistory(width: 64, height: 8, frames: 4)
        var maps: [PaintedBlocks] = []
        for frame in 1...3 {
            let map = history.begin()
            map.markAll()
            map.unmark(inside: IntRect(x: 0, y: frame, width: 64, height: 1))
            history.end(7)
            maps.append(map)
        }
        return (history, maps)
    }

    /// The rows of `map` with no marked block.
    private func unmarkedRows(_ map: PaintedBlocks) -> [Int] {
        var marked = Set<Int>()
        map.forEachMarkedRun(in: IntRect(x: 0, y: 0, width: 64, height: 8)) { y, _, _ in
            marked.insert(y)
        }
        return (0..<8).filter { !marked.contains($0) }
    }

    @Test func theMapOfTheFrameInTheBufferIsTakenOver() throws {
        let (history, maps) = history()
        // Frame 4 over the frame 2 presents before it: frame 2's map itself.
        let taken = try #require(history.beginOver(presentsAgo: 2, 7))
        #expect(taken === maps[1])
        #expect(unmarkedRows(taken) == [2])
        history.end(7)
        // Frame 4 begun last: frame 3 keeps its map, frame 2 has none.
        #expect(history.map(presentsAgo: 1, 7) === maps[2])
        #expect(history.map(presentsAgo: 2, 7) == nil)
        // Frame 5: frame 4's map is the one taken over.
        _ = history.begin()
        history.end(7)
        #expect(history.map(presentsAgo: 1, 7) === taken)
        #expect(history.map(presentsAgo: 2, 7) === maps[2])
        #expect(history.map(presentsAgo: 3, 7) == nil)
        #expect(unmarkedRows(maps[2]) == [3])
    }

    @Test func nothingIsTakenOverThatIsNotKept() {
        let (history, _) = history()
        #expect(history.beginOver(presentsAgo: 1, 8) == nil)  // another still picture
        #expect(history.beginOver(presentsAgo: 0, 7) == nil)
        #expect(history.beginOver(presentsAgo: 4, 7) == nil)  // older than kept
        // None of those began a frame: frame 3 is still the last one.
        #expect(history.beginOver(presentsAgo: 1, 7) != nil)
    }
}
