/// How far the boot is, from every source boot.md names, as the fraction
/// the ring shows (`-1...1`; negative fills counter-clockwise).
///
/// - Explicit values (`PROGRESS n`, Plymouth's `u`, `fbanim ctl progress`)
///   win once one has come.
/// - Else the boot's own progress: systemd's unit notices counted against
///   the number the previous boot saw, and the time since the boot started
///   against the previous boot's length, whichever is further, capped at
///   0.99 until quit; with no history, the time against 20 s, capped at 0.9.
/// - The value never goes down during one boot (its magnitude: a psplash
///   writer may turn the direction), and is 1 once the splash quits.
package struct BootProgress: Sendable {
    /// What the previous boot measured, if it was kept (it may come late:
    /// a splash started in the initramfs reads it once the real root is there).
    package var history: BootHistory?
    /// Unit notices so far.
    package private(set) var units = 0
    private var explicitMagnitude: Double?
    private var direction = 1.0
    private var reached = 0.0
    private var finished = false
    /// Whether the boot's own progress counts (off for an update: its
    /// progress is the updater's values alone).
    package var followsTime = true

    /// Seconds a boot is assumed to take when none was measured before.
    package static let assumedBootSeconds = 20.0
    /// How far time alone may fill the ring without history, and with it.
    package static let capWithoutHistory = 0.9
    package static let capWithHistory = 0.99

    package init(history: BootHistory?) { self.history = history }

    /// An explicit value in percent, `-100...100`.
    package mutating func explicit(percent: Int) {
        let p = Double(min(max(percent, -100), 100)) / 100
        explicitMagnitude = max(explicitMagnitude ?? 0, abs(p))
        if p != 0 { direction = p < 0 ? -1 : 1 }
    }

    /// A unit became active (systemd's `U`).
    package mutating func unitActive() { units += 1 }

    /// The boot's own progress at `seconds` since the boot started.
    package func ownProgress(at seconds: Double) -> Double {
        let t = seconds.isFinite ? max(seconds, 0) : 0
        guard let history else {
            return min(t / BootProgress.assumedBootSeconds, BootProgress.capWithoutHistory)
        }
        let byTime = t / history.seconds
        let byUnits = history.units > 0 ? Double(units) / Double(history.units) : 0
        return min(max(byTime, byUnits), BootProgress.capWithHistory)
    }

    /// The value to show at `seconds` since the boot started (never less
    /// than any value returned before), with its direction.
    package mutating func value(at seconds: Double) -> Double {
        if finished { return direction }
        let candidate = explicitMagnitude ?? (followsTime ? ownProgress(at: seconds) : 0)
        reached = max(reached, candidate)
        return direction * reached
    }

    /// Whether time alone can still move the value (no explicit value has
    /// come, not finished, the boot's own progress below its cap): a
    /// splash showing it must keep drawing.
    package func changesWithTime(at seconds: Double) -> Bool {
        guard !finished, explicitMagnitude == nil, followsTime else { return false }
        let cap = history == nil ? BootProgress.capWithoutHistory : BootProgress.capWithHistory
        return ownProgress(at: seconds) < cap
    }

    /// Whether `finish()` was called.
    package var isFinished: Bool { finished }

    /// Quit: the ring fills to the end in its direction.
    package mutating func finish() { finished = true }

    /// What this boot measured, to keep for the next one.
    package func record(at seconds: Double) -> BootHistory {
        BootHistory(units: units, seconds: seconds)
    }
}

/// What one boot measured: the unit notices it saw and how long it took
/// to the splash's quit. Kept as a small text file between boots.
package struct BootHistory: Equatable, Sendable {
    package var units: Int
    /// Seconds from the boot's start to the splash's quit.
    package var seconds: Double

    /// Boots shorter or longer than these are not taken as a measure.
    package static let secondsRange = 0.5...3600.0
    package static let unitsRange = 0...100_000

    /// - Precondition: nothing; values out of range are clamped.
    package init(units: Int, seconds: Double) {
        self.units = min(
            max(units, BootHistory.unitsRange.lowerBound), BootHistory.unitsRange.upperBound)
        let s = seconds.isFinite ? seconds : BootHistory.secondsRange.upperBound
        self.seconds = min(
            max(s, BootHistory.secondsRange.lowerBound), BootHistory.secondsRange.upperBound)
    }

    /// The file's first line.
    static let header = "fbanim-boot-history 1"

    /// The file's text.
    package var text: String {
        let tenths = Int((seconds * 10).rounded())
        return "\(BootHistory.header)\nunits \(units)\nseconds \(tenths / 10).\(tenths % 10)\n"
    }

    /// Reads the file's text; `nil` for anything else (a garbled or old
    /// file is not a measure: the boot goes on without it).
    package init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == Substring(BootHistory.header), lines.count == 3 else { return nil }
        var units: Int?
        var seconds: Double?
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "units": units = Int(parts[1])
            case "seconds": seconds = Double(parts[1])
            default: return nil
            }
        }
        guard let units, let seconds, BootHistory.unitsRange.contains(units),
            BootHistory.secondsRange.contains(seconds)
        else { return nil }
        self.init(units: units, seconds: seconds)
    }
}
