/// The polygons of the last 16 shapes flattened, by shape and transform
/// (a spinner's twelve leaves fit).
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
        var lastUse = 0
    }

    private var entries: [Entry] = []
    /// Counts lookups; the entry used longest ago is replaced first.
    private var clock = 0
    static let capacity = 16

    /// The polygon of `shape` placed by `transform`, flattening it on a miss.
    mutating func polygon(
        _ shape: Shape, _ transform: Transform, _ flattener: inout Flattener
    ) -> Polygon {
        clock += 1
        for i in entries.indices
        where entries[i].transform == transform && entries[i].shape == shape {
            entries[i].lastUse = clock
            return entries[i].polygon
        }
        flattener.flatten(shape, transform)
        let slot: Int
        if entries.count < PolygonCache.capacity {
            entries.append(Entry(shape: shape, transform: transform))
            slot = entries.count - 1
        } else {
            slot = entries.indices.min { entries[$0].lastUse < entries[$1].lastUse }!
            entries[slot].shape = shape
            entries[slot].transform = transform
        }
        entries[slot].lastUse = clock
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
        bands.removeAll(keepingCapacity: true)
        bands.append(contentsOf: other.bands)
    }
}
