/// A similarity transform: scale, then rotate (clockwise on screen), then
/// translate. `p' = translation + scale * R(rotation) * p`.
///
/// Loaders use nothing else (a transform that keeps circles circles keeps
/// stroke widths uniform), and composing two similarities is exact in its
/// angle: a quarter turn maps vertices exactly onto the turned vertices.
/// (The pixels of a turned picture may still differ by 1/255 in a few
/// places: coverage rounds edge crossings at row borders in x and at column
/// borders in y, and a quarter turn swaps the two.)
public struct Transform: Hashable, Sendable {
    public var scale: ScaleFactor
    public var rotation: Angle
    public var translation: Point

    public init(scale: ScaleFactor = .one, rotation: Angle = .zero, translation: Point = .zero) {
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
    }

    public static let identity = Transform()

    public static func translation(_ x: Fixed, _ y: Fixed) -> Transform {
        Transform(translation: Point(x: x, y: y))
    }
    public static func rotation(_ a: Angle) -> Transform { Transform(rotation: a) }
    public static func scale(_ s: ScaleFactor) -> Transform { Transform(scale: s) }

    /// `self` after `inner`: the transform that applies `inner` first.
    public func concatenating(_ inner: Transform) -> Transform {
        Transform(
            scale: scale * inner.scale, rotation: rotation + inner.rotation,
            // The origin maps to the translation (no sine to look up).
            translation: inner.translation == .zero ? translation : apply(inner.translation))
    }

    /// The matrix in Q(24+30) form, computed once per shape rather than per point.
    @inline(__always)
    var matrix: Matrix { Matrix(self) }

    /// Maps a point, rounded to nearest.
    public func apply(_ p: Point) -> Point { matrix.apply(p) }

    /// A length in the local space, measured after the transform.
    public func apply(length: Fixed) -> Fixed { scale.apply(length) }
}

/// The transform's linear part as integers: `c = cos * scale`, `s = sin * scale`
/// with 30 fraction bits. Products are taken in 128 bits: any scale and point
/// the types hold maps without overflow (a few per vertex, never per pixel).
struct Matrix {
    let c: Int64
    let s: Int64
    let tx: Int64
    let ty: Int64

    init(_ t: Transform) {
        let (cos, sin) = t.rotation.cosSinQ30
        c = shiftRounded(cos * t.scale.raw, 24)
        s = shiftRounded(sin * t.scale.raw, 24)
        tx = t.translation.x.raw
        ty = t.translation.y.raw
    }

    @inline(__always)
    func apply(_ p: Point) -> Point {
        // Clockwise rotation with y down is the usual matrix [c -s; s c].
        // The common case in 64 bits, the same value: a scale up to 2 and
        // points within 32,768 px make each product under 2^62, the sums
        // under 2^63.
        let (x, y) = (p.x.raw, p.y.raw)
        if x.magnitude < 1 << 31 && y.magnitude < 1 << 31 && c.magnitude <= 1 << 31
            && s.magnitude <= 1 << 31
        {
            let half: Int64 = 1 << 29
            return Point(
                x: Fixed(raw: ((c &* x &- s &* y &+ half) >> 30) + tx),
                y: Fixed(raw: ((s &* x &+ c &* y &+ half) >> 30) + ty))
        }
        let half = Int128(1) << 29
        let rx = (Int128(c) * Int128(x) - Int128(s) * Int128(y) + half) >> 30
        let ry = (Int128(s) * Int128(x) + Int128(c) * Int128(y) + half) >> 30
        return Point(
            x: Fixed(raw: Int64(truncatingIfNeeded: rx) + tx),
            y: Fixed(raw: Int64(truncatingIfNeeded: ry) + ty))
    }
}
