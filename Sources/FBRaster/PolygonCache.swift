/// The polygons of the last 16 shapes flattened, by shape and transform
/// (a spinner's twelve leaves fit), with the pixels each can touch.
///
/// A frame asks for a shape's bounds and then fills it, and most shapes of a
/// loader stay put from frame to frame (a ring's track, an orbit's circle)
/// while damage-only frames redraw them: flattening each once saves most of
/// a small frame's work. Entries keep their memory, so a warm cache
/// allocates nothing.
///
/// Paths (a few dozen chords per cubic) that only move (an orbit's hearts)
/// are flattened once per linear part of their transform (scale and
/// rotation), in 16.16 and without the translation, and each placement adds
/// the translation and rounds to 24.8. That gives the very vertices of
/// flattening with the whole transform: the translation is a whole number
/// of 16.16 units, and every step of flattening a path before that rounding
/// (mapping points, the cubics' weighted sums and their rounded division)
/// commutes with adding it.
struct PolygonCache {
    private struct Entry {
        var shape: Shape
        var transform: Transform
        var polygon = Polygon()
        var extent = Extent()
        var lastUse = 0
    }

    /// A path flattened at a linear part, vertices (and bands) in 16.16.
    private struct Unplaced {
        var shape: Shape
        var scale: ScaleFactor
        var rotation: Angle
        var polygon = Polygon()
        var extent = Extent()
        var lastUse = 0
    }

    private var entries: [Entry] = []
    private var unplaced: [Unplaced] = []
    /// Counts lookups; the entry used longest ago is replaced first.
    private var clock = 0
    static let capacity = 16
    static let unplacedCapacity = 4

    /// The polygon of `shape` placed by `transform` and the whole pixels it
    /// touches (empty below three vertices), flattening it on a miss.
    mutating func polygon(
        _ shape: Shape, _ transform: Transform, _ flattener: inout Flattener
    ) -> (polygon: Polygon, bounds: IntRect) {
        clock += 1
        for i in entries.indices
        where entries[i].transform == transform && entries[i].shape == shape {
            entries[i].lastUse = clock
            return (entries[i].polygon, entries[i].extent.pixels)
        }
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
        if case .path = shape {
            let u = unplacedPath(shape, transform, &flattener)
            let (tx, ty) = (transform.translation.x.raw, transform.translation.y.raw)
            entries[slot].polygon.place(unplaced[u].polygon, unplaced[u].extent, tx, ty)
            entries[slot].extent = unplaced[u].extent.placed(tx, ty)
        } else {
            flattener.flatten(shape, transform)
            entries[slot].polygon.copy(from: flattener.polygon)
            entries[slot].extent = Extent(flattener.polygon)
        }
        return (entries[slot].polygon, entries[slot].extent.pixels)
    }

    /// The index in `unplaced` of `shape` flattened at `transform`'s linear part.
    private mutating func unplacedPath(
        _ shape: Shape, _ transform: Transform, _ flattener: inout Flattener
    ) -> Int {
        for i in unplaced.indices
        where unplaced[i].scale == transform.scale && unplaced[i].rotation == transform.rotation
            && unplaced[i].shape == shape
        {
            unplaced[i].lastUse = clock
            return i
        }
        let u: Int
        if unplaced.count < PolygonCache.unplacedCapacity {
            unplaced.append(
                Unplaced(shape: shape, scale: transform.scale, rotation: transform.rotation))
            u = unplaced.count - 1
        } else {
            u = unplaced.indices.min { unplaced[$0].lastUse < unplaced[$1].lastUse }!
            unplaced[u].shape = shape
            unplaced[u].scale = transform.scale
            unplaced[u].rotation = transform.rotation
        }
        unplaced[u].lastUse = clock
        flattener.flatten(
            shape, Transform(scale: transform.scale, rotation: transform.rotation),
            fixedPoint: true)
        unplaced[u].polygon.copy(from: flattener.polygon)
        unplaced[u].extent = Extent(flattener.polygon)
        return u
    }
}

/// The smallest box holding a polygon's vertices (empty below three).
struct Extent {
    var minX = Int64.max
    var minY = Int64.max
    var maxX = Int64.min
    var maxY = Int64.min

    init() {}

    init(_ polygon: Polygon) {
        guard polygon.vertexCount >= 3 else { return }
        polygon.coordinates.withUnsafeBufferPointer { v in
            var i = 0
            while i < v.count {
                minX = min(minX, v[i])
                maxX = max(maxX, v[i])
                minY = min(minY, v[i + 1])
                maxY = max(maxY, v[i + 1])
                i += 2
            }
        }
    }

    /// A 16.16 box moved by `(tx, ty)` (16.16) and mapped to 24.8 as
    /// vertices are: the box of the moved vertices, since the mapping keeps order.
    func placed(_ tx: Int64, _ ty: Int64) -> Extent {
        if minX > maxX { return self }
        var e = Extent()
        e.minX = Flattener.subpixel(minX + tx)
        e.maxX = Flattener.subpixel(maxX + tx)
        e.minY = Flattener.subpixel(minY + ty)
        e.maxY = Flattener.subpixel(maxY + ty)
        return e
    }

    /// The whole pixels a 24.8 box touches; empty for no vertices.
    var pixels: IntRect {
        if minX > maxX { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        let x0 = Int(minX >> 8)
        let y0 = Int(minY >> 8)
        let x1 = Int((maxX + 255) >> 8)
        let y1 = Int((maxY + 255) >> 8)
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
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

    /// Becomes `unplaced` (16.16) moved by `(tx, ty)` (16.16) with every
    /// vertex rounded to 24.8 and clamped as the flattener does; the bands
    /// too (the mapping keeps order, so a band's lowest y stays lowest).
    /// `extent` is `unplaced`'s; inside the vertex limit (the usual case)
    /// the clamp is skipped.
    mutating func place(_ unplaced: Polygon, _ extent: Extent, _ tx: Int64, _ ty: Int64) {
        copy(from: unplaced)
        let limit = Flattener.vertexLimit << 8
        // (An empty extent, under three vertices, takes the checked path.)
        if extent.minX <= extent.maxX && extent.minX + tx > -limit && extent.maxX + tx < limit
            && extent.minY + ty > -limit && extent.maxY + ty < limit
        {
            // Fixed.subpixel without the clamp: (v + 1/512 px) >> 8; the
            // extent's check rules out overflow.
            let (x, y) = (tx + 128, ty + 128)
            coordinates.withUnsafeMutableBufferPointer { v in
                var i = 0
                while i < v.count {
                    v[i] = (v[i] &+ x) &>> 8
                    v[i + 1] = (v[i + 1] &+ y) &>> 8
                    i += 2
                }
            }
        } else {
            for i in stride(from: 0, to: coordinates.count, by: 2) {
                coordinates[i] = Flattener.subpixel(coordinates[i] + tx)
                coordinates[i + 1] = Flattener.subpixel(coordinates[i + 1] + ty)
            }
        }
        for i in bands.indices { bands[i] = Flattener.subpixel(bands[i] + ty) }
    }
}
