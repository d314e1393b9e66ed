/// How a value moves over time, in SwiftUI's terms: a timing curve, a
/// duration, a delay and repetition.
///
/// Where SwiftUI animates a state change, a loader here asks for the
/// value at the frame's time: `Animation.linear(duration: 3)
/// .repeatForever(autoreverses: false).value(at: context.time)` is the
/// fraction (0...1) of a turn a radar's sweep has made.
public struct Animation: Hashable, Sendable {
    /// The timing curve (`Easing`: the spec's cubic Béziers).
    public var curve: Easing
    /// One run, seconds; `> 0`.
    public var duration: Double
    /// Seconds before the first run starts; `>= 0`. The value is 0 until then.
    public var delay: Double = 0
    /// Runs forever: each run starts where the last ended.
    public var repeatsForever = false
    /// With `repeatsForever`, every other run goes back from 1 to 0.
    public var autoreverses = false

    /// An animation along `curve` over `duration` seconds (`> 0`, finite).
    public init(curve: Easing, duration: Double) {
        precondition(duration > 0 && duration.isFinite, "an animation needs a duration")
        self.curve = curve
        self.duration = duration
    }

    /// Constant speed over `duration` seconds (SwiftUI's default duration: 0.35 s).
    public static func linear(duration: Double = 0.35) -> Animation {
        Animation(curve: .linear, duration: duration)
    }
    /// Starts slowly: the curve (0.42, 0), (1, 1) over `duration` seconds.
    public static func easeIn(duration: Double = 0.35) -> Animation {
        Animation(curve: .easeIn, duration: duration)
    }
    /// Ends slowly: the curve (0, 0), (0.58, 1) over `duration` seconds.
    public static func easeOut(duration: Double = 0.35) -> Animation {
        Animation(curve: .easeOut, duration: duration)
    }
    /// Starts and ends slowly: (0.42, 0), (0.58, 1) over `duration` seconds.
    public static func easeInOut(duration: Double = 0.35) -> Animation {
        Animation(curve: .easeInOut, duration: duration)
    }

    /// The same animation starting `seconds` later (`>= 0`, finite).
    public func delay(_ seconds: Double) -> Animation {
        precondition(seconds >= 0 && seconds.isFinite, "a delay is a time to wait")
        var a = self
        a.delay = seconds
        return a
    }

    /// The same animation run again and again; with `autoreverses` (SwiftUI's
    /// default) every other run goes backwards.
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        var a = self
        a.repeatsForever = true
        a.autoreverses = autoreverses
        return a
    }

    /// The animation's value at `time` seconds after it began: 0 before the
    /// delay, the curve's value (0...1) during a run, 1 after a single run.
    public func value(at time: Double) -> Double {
        guard time >= delay else { return 0 }
        var x = (time - delay) / duration
        if repeatsForever {
            let phase = (time - delay).truncatingRemainder(dividingBy: duration)
            x = phase / duration
            if autoreverses && Int((time - delay) / duration) % 2 == 1 { x = 1 - x }
        }
        return curve.value(at: x)
    }

    /// The value at `time` between `from` (at 0) and `to` (at 1).
    public func value(from: Double, to: Double, at time: Double) -> Double {
        from + (to - from) * value(at: time)
    }

    /// The time until which the value at `time` stays the same: the end of
    /// the delay before it, the end of a single run after it, else `time`.
    public func stillUntil(_ time: Double) -> Double {
        if time < delay { return delay }
        if !repeatsForever && time >= delay + duration { return .infinity }
        return time
    }

    /// The value of a state a timer sets, animated with this animation.
    ///
    /// The timer ticks every `interval` seconds, first at `interval` (as
    /// SwiftUI's `Timer.publish(every:)`); tick `k` (0, 1, ...) sets the
    /// state to `state(k)`, from `initial` before the first. Each change
    /// animates over `duration` from its tick; a change that comes while
    /// others still run adds to them (SwiftUI's additive animations), so the
    /// value is `initial` plus, for every tick `a <= time`, its change times
    /// the curve's value at `(time - a) / duration`. Delays and repetition
    /// do not apply here. `state` is called for the ticks of the last
    /// `duration` seconds only.
    public func value(
        at time: Double, ticksEvery interval: Double, initial: Double,
        state: (Int) -> Double
    ) -> Double {
        precondition(interval > 0 && interval.isFinite, "a timer needs an interval")
        guard time >= interval else { return initial }
        // Ticks k = 0 ..< count have happened, tick k at interval * (k + 1).
        let count = Int((time / interval).rounded(.down))
        func at(_ k: Int) -> Double { interval * Double(k + 1) }
        // Changes that have finished add up to the state they set.
        var first = max(0, count - Int((duration / interval).rounded(.up)) - 1)
        while first < count && time - at(first) >= duration { first += 1 }
        var value = first == 0 ? initial : state(first - 1)
        var previous = value
        for k in first..<count {
            let next = state(k)
            if next != previous {
                value += (next - previous) * curve.value(at: (time - at(k)) / duration)
            }
            previous = next
        }
        return value
    }
}
