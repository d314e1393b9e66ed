/// Cubic-Bézier timing curves from (0, 0) to (1, 1), as SwiftUI names them.
public enum Easing: Sendable {
    case linear, easeIn, easeOut, easeInOut

    /// The curve's control points (x1, y1, x2, y2).
    var controlPoints: (Double, Double, Double, Double) {
        switch self {
        case .linear: (0, 0, 1, 1)
        case .easeIn: (0.42, 0, 1, 1)
        case .easeOut: (0, 0, 0.58, 1)
        case .easeInOut: (0.42, 0, 0.58, 1)
        }
    }

    /// The curve's y where its x equals `x` (progress); x is clamped to 0...1.
    ///
    /// Solves x(s) = x for the curve parameter s by Newton's method, falling
    /// back to bisection (x(s) is increasing for these curves) to 1e-12.
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if case .linear = self { return x }
        let (x1, y1, x2, y2) = controlPoints
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var s = x
        var solved = false
        for _ in 0..<8 {
            let error = bezier(s, x1, x2) - x
            if abs(error) < 1e-12 {
                solved = true
                break
            }
            let d = slope(s, x1, x2)
            if abs(d) < 1e-9 { break }
            s -= error / d
            if s < 0 || s > 1 { break }
        }
        if !solved {
            var lo = 0.0
            var hi = 1.0
            s = x
            for _ in 0..<64 {
                s = (lo + hi) / 2
                let v = bezier(s, x1, x2)
                if abs(v - x) < 1e-13 { break }
                if v < x { lo = s } else { hi = s }
            }
        }
        return bezier(s, y1, y2)
    }
}

/// The ring loader's timeline.
public enum Ring {
    /// The delay before the first fill, seconds.
    public static let delay = 0.5
    /// One fill, seconds.
    public static let period = 30.0

    /// Progress p(t) in 0..<1: 0 before the delay, then an ease-out fill over
    /// the period, repeated forever without reversing (`RingLoader.fill`).
    public static func progress(at t: Double) -> Double { RingLoader.fill.value(at: t) }
}

/// The spinner loader's timeline.
public enum Spinner {
    /// Seconds between ticks; the first tick is at one interval.
    public static let tick = 0.15
    /// Each change animates with easeIn over this long, seconds.
    public static let duration = 1.5
    public static let leafCount = 12

    /// Leaf `i`'s mix m_i(t) in 0...1: 0 resting, 1 current.
    ///
    /// Tick k makes leaf k mod 12 current and the previous leaf not; each
    /// change animates with easeIn over 1.5 s, and changes add up
    /// (`Animation.value(at:ticksEvery:initial:state:)`), which is the spec's
    /// sum of easeIn((t-a)/1.5) - easeIn((t-a-0.15)/1.5).
    public static func mix(leaf i: Int, at t: Double) -> Double {
        guard (0..<leafCount).contains(i) else { return 0 }
        return Animation.easeIn(duration: duration).value(
            at: t, ticksEvery: tick, initial: 0, state: { $0 % leafCount == i ? 1 : 0 })
    }
}

/// A value moved towards each new target over a fixed time along an
/// easing curve, from wherever it is when the target changes (the ring's
/// progress driven from outside: 0.3 s with easeOut, loaders.md).
public struct EasedValue: Equatable, Sendable {
    public let duration: Double
    public let curve: Easing
    /// The value the move started from, where it goes, and when it started.
    public private(set) var origin: Double
    public private(set) var target: Double
    public private(set) var start: Double

    /// The ring's progress: 0.3 s easeOut.
    public static func ringProgress(_ value: Double = 0) -> EasedValue {
        EasedValue(value, duration: 0.3, curve: .easeOut)
    }

    /// A value resting at `value`. - Precondition: `duration > 0`.
    public init(_ value: Double, duration: Double, curve: Easing) {
        precondition(duration > 0, "an easing needs a duration")
        self.duration = duration
        self.curve = curve
        origin = value
        target = value
        start = 0
    }

    /// The value at `time` seconds.
    public func value(at time: Double) -> Double {
        let x = (time - start) / duration
        if !(x < 1) { return target }
        if x <= 0 { return origin }
        return origin + (target - origin) * curve.value(at: x)
    }

    /// Moves towards `newTarget` from the value at `time`; a target equal
    /// to the current one changes nothing (the move under way goes on).
    public mutating func move(to newTarget: Double, at time: Double) {
        guard newTarget != target else { return }
        origin = value(at: time)
        target = newTarget
        start = time
    }

    /// When the value stops changing (it rests at `target` from then on).
    public var settlesAt: Double { start + duration }
}
