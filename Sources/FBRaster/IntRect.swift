/// A rectangle of whole pixels: `[x, x + width) x [y, y + height)`.
public struct IntRect: Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    @inlinable
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    @inlinable public var isEmpty: Bool { width <= 0 || height <= 0 }
    @inlinable public var maxX: Int { x + width }
    @inlinable public var maxY: Int { y + height }

    /// The common part of two rectangles (empty when they do not meet).
    @inlinable
    public func intersection(_ o: IntRect) -> IntRect {
        let x0 = Swift.max(x, o.x)
        let y0 = Swift.max(y, o.y)
        let x1 = Swift.min(maxX, o.maxX)
        let y1 = Swift.min(maxY, o.maxY)
        return IntRect(x: x0, y: y0, width: Swift.max(0, x1 - x0), height: Swift.max(0, y1 - y0))
    }
}

extension IntRect {
    /// The smallest rectangle holding both (an empty one adds nothing).
    @inlinable
    public func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = Swift.min(x, o.x)
        let y0 = Swift.min(y, o.y)
        let x1 = Swift.max(maxX, o.maxX)
        let y1 = Swift.max(maxY, o.maxY)
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle grown by `d` pixels on every side.
    public func outset(by d: Int) -> IntRect {
        IntRect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }
}
