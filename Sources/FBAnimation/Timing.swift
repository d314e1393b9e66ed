/// Cubic-Bézier timing curves from (0, 0) to (1, 1), as SwiftUI names them.
public enum Easing: Sendable {
    case linear, easeIn, easeOut, easeInOut

    /// The curve's y at progress x; x is clamped to 0...1.
    public func value(at x: Double) -> Double {
        fatalError("in progress")
    }
}

/// The ring loader's timeline.
public enum Ring {
    /// Progress p(t) in 0..<1 (0 before the 0.5 s delay, then a 30 s ease-out fill, repeated).
    public static func progress(at t: Double) -> Double { fatalError("in progress") }
}

/// The spinner loader's timeline.
public enum Spinner {
    /// Leaf `i`'s mix m_i(t) in 0...1: 0 resting, 1 current.
    public static func mix(leaf i: Int, at t: Double) -> Double { fatalError("in progress") }
}
