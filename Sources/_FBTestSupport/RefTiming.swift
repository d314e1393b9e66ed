// The spec's timelines (shared/spec/loaders.md), computed independently of
// FBAnimation in Double precision: the reference for the oracle tests.

/// The spec's cubic-Bézier easing curves, solved for x by bisection.
public enum RefEasing: String, CaseIterable, Sendable {
    case linear, easeIn, easeOut, easeInOut

    /// Control points (x1, y1, x2, y2) of the curve from (0, 0) to (1, 1).
    public var controlPoints: (Double, Double, Double, Double) {
        switch self {
        case .linear: return (0, 0, 1, 1)
        case .easeIn: return (0.42, 0, 1, 1)
        case .easeOut: return (0, 0, 0.58, 1)
        case .easeInOut: return (0.42, 0, 0.58, 1)
        }
    }

    /// One coordinate of the cubic Bézier with end points 0 and 1 at parameter s.
    @inline(__always)
    static func bezier(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * c1 + 3 * r * s * s * c2 + s * s * s
    }

    /// y at progress x; 0 for x <= 0, 1 for x >= 1.
    ///
    /// x(s) is monotone on [0, 1] for all four curves (x1, x2 in [0, 1]), so
    /// 80 bisection steps pin s to 2^-80, far below 1e-12; y(s) has slope
    /// at most 3, so y is as exact as Double allows.
    public func value(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if self == .linear { return x }
        let (x1, y1, x2, y2) = controlPoints
        var lo = 0.0
        var hi = 1.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if RefEasing.bezier(mid, x1, x2) < x { lo = mid } else { hi = mid }
            if hi - lo < 1e-17 { break }
        }
        return RefEasing.bezier((lo + hi) / 2, y1, y2)
    }
}

/// The loaders' clocks, written literally from the spec.
public enum RefTiming {
    /// Ring progress: 0 before 0.5 s, then easeOut(((t - 0.5) mod 30) / 30).
    public static func ringProgress(_ t: Double) -> Double {
        if t < 0.5 { return 0 }
        let phase = (t - 0.5).truncatingRemainder(dividingBy: 30) / 30
        return RefEasing.easeOut.value(phase)
    }

    /// Radar leading edge in degrees: 360 * ((t / 3) mod 1).
    public static func radarAngleDegrees(_ t: Double) -> Double {
        360 * (t / 3).truncatingRemainder(dividingBy: 1)
    }

    /// Orbit heart angle in degrees for period `period` (5 s or 2 s).
    public static func orbitAngleDegrees(_ t: Double, period: Double) -> Double {
        360 * (t / period).truncatingRemainder(dividingBy: 1)
    }

    /// Spinner mix m_i(t) by brute force: the spec's sum over EVERY tick
    /// a = 0.15 (k + 1) <= t at which leaf i became current (k mod 12 == i) of
    /// easeIn((t - a) / 1.5) - easeIn((t - a - 0.15) / 1.5).
    public static func spinnerMix(leaf i: Int, at t: Double) -> Double {
        var m = 0.0
        var k = 0
        while true {
            let a = 0.15 * Double(k + 1)
            if a > t { break }
            if k % 12 == i {
                m +=
                    RefEasing.easeIn.value((t - a) / 1.5)
                    - RefEasing.easeIn.value((t - a - 0.15) / 1.5)
            }
            k += 1
        }
        return m
    }
}
