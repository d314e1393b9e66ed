import FBRaster

/// The blocks where each of the last frames may differ from the still
/// picture (`PaintedBlocks`), for the frame renderer: a 16-bit target
/// converts only what this frame or the one in its buffer marked, and a
/// still layer's copy goes only where the frame in the buffer marked. A
/// frame no map serves keeps none (it counts as unknown). A map counts only
/// against the still picture
/// it was marked over (the still layer's generation). A class: the
/// renderer changes it in place each frame, and a copied struct's arrays
/// would be copied again (three allocations a frame).
final class BlockHistory {
    private var maps: [PaintedBlocks]
    /// Frames begun; the map of frame `n` is `maps[n % maps.count]`.
    private var serial = 0
    /// For each map, the frame and still picture it holds (-1: none).
    private var serials: [Int]
    private var generations: [Int]

    init(width: Int, height: Int, frames: Int) {
        maps = (0..<frames).map { _ in PaintedBlocks(width: width, height: height) }
        serials = Array(repeating: -1, count: frames)
        generations = Array(repeating: -1, count: frames)
    }

    /// The map for a new frame, to mark while it is drawn (`end` keeps it).
    func begin() -> PaintedBlocks {
        serial += 1
        serials[serial % maps.count] = -1
        return maps[serial % maps.count]
    }

    /// The map for a new frame drawn over the frame `n` presents before it
    /// (the one its buffer holds), when that frame's map is kept and was
    /// marked over still picture `generation`: that very map, taken over
    /// with its marks (no copy of it), so that frame has none from now on;
    /// else `nil`, and nothing is begun.
    ///
    /// For a renderer that reads no other map while it draws (the frame
    /// it draws over is all it needs); `FrameRenderer.draw` says why
    /// reading and marking one map is safe.
    func beginOver(presentsAgo n: Int, _ generation: Int) -> PaintedBlocks? {
        let frame = serial + 1 - n
        let held = frame % maps.count
        guard n > 0, n < maps.count, frame > 0, serials[held] == frame,
            generations[held] == generation
        else { return nil }
        serial += 1
        let slot = serial % maps.count
        maps.swapAt(held, slot)
        serials[held] = -1
        serials[slot] = -1
        return maps[slot]
    }

    /// Keeps the map of the frame begun last, marked over still picture `generation`.
    func end(_ generation: Int) {
        serials[serial % maps.count] = serial
        generations[serial % maps.count] = generation
    }

    /// The map of the frame `n` frames before the one begun last, if it is
    /// kept and was marked over still picture `generation`.
    func map(presentsAgo n: Int, _ generation: Int) -> PaintedBlocks? {
        let frame = serial - n
        let i = frame % maps.count
        guard n > 0, n < maps.count, frame > 0, serials[i] == frame, generations[i] == generation
        else { return nil }
        return maps[i]
    }
}
