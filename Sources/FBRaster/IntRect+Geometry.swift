extension IntRect {
    /// The smallest rectangle holding both (an empty one adds nothing).
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
