import FBRaster
import FBScheduler

/// A display in memory, with the lifecycle of a real one: two buffers that
/// swap on present, vertical blanks at `refresh` Hz (a present is latched by
/// the next one, and the buffer it replaces is free only after it, as with a
/// page flip), presents that take `present_ms` one after the other (a
/// display never presents faster than that), and optionally a virtual clock
/// of its own, on which drawing costs the CPU time it took.
///
/// Tests and benchmarks read what it "shows" from `screen`.
public final class SimulatedDisplay: HandOverDisplay {
    /// The parsed `sim:WxH[:FORMAT][?refresh=HZ&present_ms=MS&clock=virtual]`.
    public struct Options: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var format: PixelFormat = .xrgb8888
        /// Vertical blanks per second; presents land on them.
        public var refreshHz = 60
        /// How long every present takes, in nanoseconds (a slow SPI panel).
        public var presentNanoseconds: UInt64 = 0
        /// The display keeps its own clock, which jumps instead of sleeping.
        public var virtualClock = false

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        static func fail(_ why: String) -> DeviceName.ParseError {
            DeviceName.ParseError(description: why)
        }

        /// Parses a `sim:` device name; errors name the bad part.
        public static func parse(_ text: String) throws(DeviceName.ParseError) -> Options {
            var rest = Substring(text.dropFirst(4))
            var query = Substring("")
            if let q = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: q)...]
                rest = rest[..<q]
            }
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                throw fail("bad simulated display '\(text)': expected sim:WxH[:FORMAT]")
            }
            let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
                size[0].allSatisfy(\.isNumber), size[1].allSatisfy(\.isNumber)
            else {
                throw fail("bad size '\(parts[0])' in '\(text)': expected WxH, as in sim:320x240")
            }
            guard (1...8192).contains(w), (1...8192).contains(h) else {
                throw fail("size '\(parts[0])' out of range: each side from 1 to 8192")
            }
            var options = Options(width: w, height: h)
            if parts.count == 2 {
                guard let f = PixelFormat(name: String(parts[1])) else {
                    let names = PixelFormat.allCases.map(\.name).joined(separator: ", ")
                    throw fail("unknown pixel format '\(parts[1])': expected one of \(names)")
                }
                options.format = f
            }
            var seen: Set<Substring> = []
            for pair in query.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = kv[0]
                let value = kv.count == 2 ? kv[1] : ""
                guard seen.insert(key).inserted else {
                    throw fail("key '\(key)' given twice in '\(text)'")
                }
                switch key {
                case "refresh":
                    guard let hz = Int(value), (1...1000).contains(hz) else {
                        throw fail(
                            "bad refresh '\(value)': expected a whole number of Hz from 1 to 1000")
                    }
                    options.refreshHz = hz
                case "present_ms":
                    // Plain decimals only: no hex floats, nan or inf.
                    guard value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                        let ms = Double(value), ms.isFinite, ms >= 0, ms <= 10_000
                    else {
                        throw fail(
                            "bad present_ms '\(value)': expected milliseconds from 0 to 10000")
                    }
                    options.presentNanoseconds = UInt64((ms * 1e6).rounded())
                case "clock":
                    guard value == "virtual" else {
                        throw fail("bad clock '\(value)': the only value is clock=virtual")
                    }
                    options.virtualClock = true
                default:
                    throw fail(
                        "unknown key '\(key)' in '\(text)': expected refresh, present_ms or clock")
                }
            }
            return options
        }
    }

    public let options: Options
    public let description: DisplayDescription
    public let clock: FrameClock?
    /// The clock waits happen on: the virtual one, or the system's.
    private let waitClock: FrameClock
    private let buffers: [PixelBuffer]
    private var front = 0
    /// Whether each buffer holds a frame that was shown (else its age is 0).
    private var shown = [false, false]
    private let opened: UInt64
    /// The vertical blank that will latch the last present; the next back
    /// buffer is free after it.
    private var pendingFlip: UInt64?
    /// The index of the blank the last present latched on.
    private var lastBlank: UInt64?

    /// Presents so far.
    public private(set) var presentCount = 0
    /// Pixels copied to the screen by presents so far (the damage areas).
    public private(set) var pixelsPresented = 0
    /// The damage of the last present.
    public private(set) var lastDamage: [IntRect] = []
    public private(set) var isClosed = false

    /// - Parameters:
    ///   - systemClock: the clock to wait on unless `options.virtualClock`.
    ///   - work: with `options.virtualClock`, the CPU time the process has
    ///     used (nanoseconds): the virtual clock moves with it between
    ///     waits, so drawing a frame costs the time it took, as on a real
    ///     clock, and only waits are skipped. `nil`: work takes no time.
    public init(_ options: Options, systemClock: FrameClock, work: (() -> UInt64)? = nil) {
        self.options = options
        var name = "sim:\(options.width)x\(options.height):\(options.format.name)"
        if options.virtualClock { name += " (virtual clock)" }
        description = DisplayDescription(
            name: name, width: options.width, height: options.height, format: options.format,
            refreshHz: options.refreshHz)
        let virtual: ManualClock? = options.virtualClock ? ManualClock(work: work) : nil
        clock = virtual
        waitClock = virtual ?? systemClock
        buffers = (0..<2).map { _ in
            PixelBuffer(width: options.width, height: options.height, format: options.format)
        }
        opened = waitClock.now()
        lastDamage.reserveCapacity(16)
    }

    /// What the simulated monitor shows now.
    public var screen: Surface { buffers[front].surface }

    public func backBuffer() throws -> BackBuffer {
        // The buffer being replaced is scanned out until the flip: wait for it.
        if let flip = pendingFlip {
            waitClock.sleep(until: flip)
            pendingFlip = nil
        }
        // Two buffers swap: the back one holds the frame shown before the last.
        let back = 1 - front
        return BackBuffer(surface: buffers[back].surface, age: shown[back] ? 2 : 0)
    }

    public func present(damage: [IntRect]) throws {
        precondition(!isClosed, "present after close")
        precondition(!isDeactivated, "present while handed over")
        let screenRect = IntRect(x: 0, y: 0, width: options.width, height: options.height)
        lastDamage.removeAll(keepingCapacity: true)
        for r in damage {
            let c = r.intersection(screenRect)
            if !c.isEmpty {
                lastDamage.append(c)
                pixelsPresented += c.width * c.height
            }
        }
        // The transfer takes its time; the frame then latches on the next
        // blank, which the next `backBuffer()` waits for (as a page flip).
        if options.presentNanoseconds > 0 {
            // A transfer in flight finishes, also when a stop is requested.
            waitClock.finish(until: waitClock.now() + options.presentNanoseconds)
        }
        // Blank k is at `opened + floor(k * 1e9 / refresh)` (exact, as the
        // scheduler's slots: at refresh = fps a frame presented at its slot's
        // start latches on that very blank). One flip per blank: a present
        // before the last flip latched waits for the blank after it.
        let hz = UInt64(options.refreshHz)
        let sinceOpen = waitClock.now() - opened
        let (q, r) = sinceOpen.quotientAndRemainder(dividingBy: 1_000_000_000)
        var blank = q * hz + (r * hz + 999_999_999) / 1_000_000_000  // split: no overflow
        if let last = lastBlank, blank <= last { blank = last + 1 }
        lastBlank = blank
        pendingFlip = opened + blank / hz * 1_000_000_000 + blank % hz * 1_000_000_000 / hz
        front = 1 - front
        shown[front] = true
        presentCount += 1
    }

    public func close() { isClosed = true }

    /// Whether the display is handed over (`deactivate()`): a present then fails.
    public private(set) var isDeactivated = false

    public func deactivate() { isDeactivated = true }

    public func reactivate() throws { isDeactivated = false }

    /// Memory keeps the picture; nothing to hold on to.
    public func closeRetainingPicture() -> Bool {
        close()
        return false
    }

    public var isShowingPicture: Bool { false }
    public func releaseRetained() {}
    public func invalidateScreen() {}
}
