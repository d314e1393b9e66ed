/// The books of a run: what was presented, what was dropped, and how long
/// frames took.
///
/// `presented + dropped == slots`: every slot of 1/fps seconds since the
/// start either got a frame or is counted dropped. Recording a frame never
/// allocates (times go into a fixed histogram).
public struct Books: Sendable {
    /// The target frame rate.
    public let fps: Int
    /// Slots that showed the right picture: a new frame presented in it,
    /// or one kept because nothing changed (`unchanged` of them).
    public internal(set) var presented = 0
    /// Slots of `presented` that kept the picture already on screen
    /// (nothing changed), with no new frame presented: `presented -
    /// unchanged` frames were drawn and presented, one display present each.
    public internal(set) var unchanged = 0
    /// Slots that ended without a new frame.
    public internal(set) var dropped = 0
    /// Frames shown in a later slot than the one they were drawn for.
    public internal(set) var late = 0
    /// Nanoseconds from the first slot to the end of the run.
    public internal(set) var elapsed: UInt64 = 0
    /// Draw-and-present time of each frame.
    public internal(set) var frameTimes = DurationHistogram()
    /// CPU time drawing and presenting each new frame took (empty without
    /// a CPU clock).
    public internal(set) var drawCPUTimes = DurationHistogram()
    /// CPU nanoseconds all frames took to draw and present, the unchanged
    /// ones (found to change nothing) too.
    public internal(set) var drawCPUTotal: UInt64 = 0

    public init(fps: Int) { self.fps = fps }

    /// Slots that have elapsed: presented plus dropped.
    public var slots: Int { presented + dropped }

    /// New frames presented: one display present each.
    public var framesDrawn: Int { presented - unchanged }

    /// Frames presented per second of the run (0 for an empty run).
    public var achievedFPS: Double {
        elapsed == 0 ? 0 : Double(presented) / (Double(elapsed) / 1e9)
    }
}

/// Durations in nanoseconds, kept as counts in log-linear buckets (32 per
/// power of two: within 3 % of the truth), so recording is O(1) and
/// allocation-free. The maximum is kept exactly.
public struct DurationHistogram: Sendable {
    private static let subBuckets = 32
    private var counts = [UInt32](repeating: 0, count: 64 * 32)
    public private(set) var count = 0
    public private(set) var maximum: UInt64 = 0
    public private(set) var minimum: UInt64 = .max

    public init() {}

    public mutating func record(_ nanoseconds: UInt64) {
        counts[DurationHistogram.bucket(of: nanoseconds)] &+= 1
        count += 1
        maximum = max(maximum, nanoseconds)
        minimum = min(minimum, nanoseconds)
    }

    /// Bucket: the power of two, then the next 5 bits below the top one.
    static func bucket(of v: UInt64) -> Int {
        if v < UInt64(subBuckets) { return Int(v) }
        let top = 63 - v.leadingZeroBitCount  // >= 5
        let mantissa = Int(v >> UInt64(top - 5)) & (subBuckets - 1)
        return (top - 4) * subBuckets + mantissa
    }

    /// The middle of bucket `b`'s range.
    static func value(of b: Int) -> UInt64 {
        if b < subBuckets { return UInt64(b) }
        let top = b / subBuckets + 4
        let mantissa = UInt64(b % subBuckets)
        let low = (UInt64(subBuckets) | mantissa) << UInt64(top - 5)
        return low + (UInt64(1) << UInt64(top - 5)) / 2
    }

    /// The value below which `fraction` (0...1) of the durations lie; 0 when empty.
    /// `1` gives the exact maximum. Within 3 % (the middle of its bucket),
    /// and never outside the smallest and largest durations recorded: equal
    /// durations give exactly that duration.
    public func percentile(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        if fraction >= 1 { return maximum }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (b, c) in counts.enumerated() where c > 0 {
            seen += Int(c)
            if seen >= rank { return min(max(DurationHistogram.value(of: b), minimum), maximum) }
        }
        return maximum
    }
}

extension Books {
    /// Adds `later`'s books, a later stretch of the same run at the same
    /// rate (a splash's play after a hand-over or a move): slots, times
    /// and durations add up, as if one run had booked both.
    /// - Precondition: `later.fps == fps`.
    public mutating func append(_ later: Books) {
        precondition(later.fps == fps, "books of different frame rates")
        presented += later.presented
        unchanged += later.unchanged
        dropped += later.dropped
        late += later.late
        elapsed += later.elapsed
        frameTimes.merge(later.frameTimes)
        drawCPUTimes.merge(later.drawCPUTimes)
        drawCPUTotal += later.drawCPUTotal
    }
}

extension DurationHistogram {
    /// Adds every duration `other` recorded.
    public mutating func merge(_ other: DurationHistogram) {
        for (bucket, count) in other.counts.enumerated() where count > 0 {
            counts[bucket] &+= count
        }
        count += other.count
        maximum = max(maximum, other.maximum)
        minimum = min(minimum, other.minimum)
    }
}
