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
        var polygon = Polygon<Subpixel>()
        var extent = Extent<Subpixel>()
        var lastUse = 0
    }

    /// A path flattened at a linear part, vertices (and bands) in 16.16.
    private struct Unplaced {
        var shape: Shape
        var scale: ScaleFactor
        var rotation: Angle
        var polygon = Polygon<Fixed>()
        var extent = Extent<Fixed>()
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
    ) -> (polygon: Polygon<Subpixel>, bounds: IntRect) {
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
            let t = transform.translation
            entries[slot].polygon.place(unplaced[u].polygon, unplaced[u].extent, t)
            entries[slot].extent = unplaced[u].extent.placed(t)
        } else {
            flattener.flatten(shape, transform)
            entries[slot].extent = flattener.extent
            flattener.movePolygon(into: &entries[slot].polygon)
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
        unplaced[u].polygon.copy(from: flattener.unplacedPolygon)
        unplaced[u].extent = flattener.unplacedExtent
        return u
    }
}

/// The smallest box holding a polygon's vertices (empty below three), in
/// the polygon's unit (raw values of `Subpixel` or `Fixed`).
struct Extent<Unit> {
    var minX = Int64.max
    var minY = Int64.max
    var maxX = Int64.min
    var maxY = Int64.min

    init() {}

    /// A box of raw values (none: `minX > maxX`).
    init(_ box: (minX: Int64, minY: Int64, maxX: Int64, maxY: Int64)) {
        (minX, minY, maxX, maxY) = box
    }
}

extension Extent<Fixed> {
    /// The box moved by `t` and mapped to 24.8 as vertices are: the box of
    /// the moved vertices, since the mapping keeps order.
    func placed(_ t: Point) -> Extent<Subpixel> {
        var e = Extent<Subpixel>()
        if minX > maxX { return e }
        func place(_ v: Int64, _ by: Fixed) -> Int64 { Subpixel(clamping: Fixed(raw: v) + by).raw }
        e.minX = place(minX, t.x)
        e.maxX = place(maxX, t.x)
        e.minY = place(minY, t.y)
        e.maxY = place(maxY, t.y)
        return e
    }
}

extension Extent<Subpixel> {
    /// The whole pixels the box touches; empty for no vertices.
    var pixels: IntRect {
        if minX > maxX { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        let x0 = Subpixel(raw: minX).floor
        let y0 = Subpixel(raw: minY).floor
        let x1 = Subpixel(raw: maxX).ceil
        let y1 = Subpixel(raw: maxY).ceil
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension Polygon {
    /// Becomes a copy of `other`, reusing this polygon's memory.
    mutating func copy(from other: Polygon) {
        rawCoordinates.removeAll(keepingCapacity: true)
        rawCoordinates.append(contentsOf: other.rawCoordinates)
        contourEnds.removeAll(keepingCapacity: true)
        contourEnds.append(contentsOf: other.contourEnds)
        rawBands.removeAll(keepingCapacity: true)
        rawBands.append(contentsOf: other.rawBands)
    }
}

extension Polygon<Subpixel> {
    /// Becomes `unplaced` moved by `t` with every vertex rounded to 24.8 and
    /// clamped as the flattener does; the bands too (the mapping keeps
    /// order, so a band's lowest y stays lowest). `extent` is `unplaced`'s;
    /// inside the vertex limit (the usual case) the clamp is skipped.
    mutating func place(_ unplaced: Polygon<Fixed>, _ extent: Extent<Fixed>, _ t: Point) {
        // Raw from here on: 16.16 in, 24.8 out, over every vertex.
        let (tx, ty) = (t.x.raw, t.y.raw)
        rawCoordinates.removeAll(keepingCapacity: true)
        rawCoordinates.append(contentsOf: unplaced.rawCoordinates)
        contourEnds.removeAll(keepingCapacity: true)
        contourEnds.append(contentsOf: unplaced.contourEnds)
        rawBands.removeAll(keepingCapacity: true)
        rawBands.append(contentsOf: unplaced.rawBands)
        let limit = Subpixel.limit << 8
        // (An empty extent, under three vertices, takes the checked path.)
        if extent.minX <= extent.maxX && extent.minX + tx > -limit && extent.maxX + tx < limit
            && extent.minY + ty > -limit && extent.maxY + ty < limit
        {
            // Subpixel(Fixed) without the clamp: (v + 1/512 px) >> 8; the
            // extent's check rules out overflow.
            let (x, y) = (tx + 128, ty + 128)
            rawCoordinates.withUnsafeMutableBufferPointer { v in
                var i = 0
                while i < v.count {
                    v[i] = (v[i] &+ x) &>> 8
                    v[i + 1] = (v[i + 1] &+ y) &>> 8
                    i += 2
                }
            }
        } else {
            for i in stride(from: 0, to: rawCoordinates.count, by: 2) {
                rawCoordinates[i] = Subpixel(clamping: Fixed(raw: rawCoordinates[i] + tx)).raw
                rawCoordinates[i + 1] =
                    Subpixel(clamping: Fixed(raw: rawCoordinates[i + 1] + ty)).raw
            }
        }
        for i in rawBands.indices {
            rawBands[i] = Subpixel(clamping: Fixed(raw: rawBands[i] + ty)).raw
        }
    }
}
