/// The polygons of the last few shapes flattened, by shape and transform.
///
/// A frame asks for a shape's bounds and then fills it, and most shapes of a
/// loader stay put from frame to frame (a ring's track, an orbit's circle)
/// while damage-only frames redraw them: flattening each once saves most of
/// a small frame's work. Entries keep their memory, so a warm cache
/// allocates nothing.
struct PolygonCache {
    private struct Entry {
        var shape: Shape
        var transform: Transform
        var polygon = Polygon()
    }

    private var entries: [Entry] = []
    private var nextVictim = 0
    static let capacity = 8

    /// The polygon of `shape` placed by `transform`, flattening it on a miss.
    mutating func polygon(
        _ shape: Shape, _ transform: Transform, _ flattener: inout Flattener
    ) -> Polygon {
        for e in entries where e.transform == transform && e.shape == shape {
            return e.polygon
        }
        flattener.flatten(shape, transform)
        let slot: Int
        if entries.count < PolygonCache.capacity {
            entries.append(Entry(shape: shape, transform: transform))
            slot = entries.count - 1
        } else {
            slot = nextVictim
            nextVictim = (nextVictim + 1) % PolygonCache.capacity
            entries[slot].shape = shape
            entries[slot].transform = transform
        }
        entries[slot].polygon.copy(from: flattener.polygon)
        return entries[slot].polygon
    }
}

extension Polygon {
    /// Becomes a copy of `other`, reusing this polygon's memory.
    mutating func copy(from other: Polygon) {
        coordinates.removeAll(keepingCapacity: true)
        coordinates.append(contentsOf: other.coordinates)
        contourEnds.removeAll(keepingCapacity: true)
        contourEnds.append(contentsOf: other.contourEnds)
    }
}
