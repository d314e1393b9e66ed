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
            // A few keys: a list, not a set (whose hashing and runtime
            // metadata cost every start more than the search).
            var seen: [Substring] = []
            for pair in query.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = kv[0]
                let value = kv.count == 2 ? kv[1] : ""
                guard !seen.contains(key) else {
                    throw fail("key '\(key)' given twice in '\(text)'")
                }
                seen.append(key)
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
    /// The CPU time the virtual clock charges drawing (`work`), read as a
    /// present begins; `nil` without a virtual clock or `work`.
    public let workMeter: CPUMeter?
    /// The clock waits happen on: the virtual one, or the system's.
    private let waitClock: FrameClock
    /// The two buffers, one after the other in one block of memory.
    private let buffers: (Surface, Surface)
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
    ///   - work: with `options.virtualClock`, the CPU time the drawing
    ///     thread has used (nanoseconds): the virtual clock moves with it
    ///     between waits (read when a wait would jump and when a present
    ///     begins), so drawing a frame costs the time it took, as on a real
    ///     clock, and only waits are skipped. `nil`: work takes no time.
    ///   - memory: gives zeroed memory of a byte count for the two buffers
    ///     (the system's, zeroed by the kernel as it maps it); `nil`, or
    ///     when it gives none: memory from the heap, cleared here.
    public init(
        _ options: Options, systemClock: FrameClock, work: (() -> UInt64)? = nil,
        memory: ((_ byteCount: Int) -> ZeroedMemory?)? = nil
    ) {
        self.options = options
        var name = "sim:\(options.width)x\(options.height):\(options.format.name)"
        if options.virtualClock { name += " (virtual clock)" }
        description = DisplayDescription(
            name: name, width: options.width, height: options.height, format: options.format,
            refreshHz: options.refreshHz)
        let meter = options.virtualClock ? work.map(CPUMeter.init) : nil
        workMeter = meter
        let virtual: ManualClock? =
            options.virtualClock ? ManualClock(work: meter.map { m in { m.read() } }) : nil
        clock = virtual
        waitClock = virtual ?? systemClock
        buffers = SimulatedDisplay.makeBuffers(options, memory: memory)
        opened = waitClock.now()
        lastDamage.reserveCapacity(16)
    }

    /// What the simulated monitor shows now.
    public var screen: Surface { front == 0 ? buffers.0 : buffers.1 }

    /// Two surfaces in one block of zeroed memory: `memory`'s, else the heap's.
    private static func makeBuffers(
        _ options: Options, memory: ((Int) -> ZeroedMemory?)?
    ) -> (Surface, Surface) {
        let stride = options.width * options.format.bytesPerPixel
        // The second buffer begins on a cache line.
        let offset = (stride * options.height + 63) / 64 * 64
        let block: ZeroedMemory = memory?(2 * offset) ?? HeapMemory(byteCount: 2 * offset)
        precondition(block.bytes.count >= 2 * offset, "memory smaller than asked")
        guard let base = block.bytes.baseAddress else { preconditionFailure("no memory") }
        func surface(_ i: Int) -> Surface {
            Surface(
                base: base + i * offset, width: options.width, height: options.height,
                stride: stride, format: options.format, owner: block)
        }
        return (surface(0), surface(1))
    }

    public func backBuffer() throws -> BackBuffer {
        // The buffer being replaced is scanned out until the flip: wait for it.
        if let flip = pendingFlip {
            waitClock.sleep(until: flip)
            pendingFlip = nil
        }
        // Two buffers swap: the back one holds the frame shown before the last.
        let back = 1 - front
        return BackBuffer(surface: back == 0 ? buffers.0 : buffers.1, age: shown[back] ? 2 : 0)
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
        // The present begins after the drawing: the virtual clock reads the
        // CPU time it took.
        let begun = waitClock.settledNow()
        // The transfer takes its time; the frame then latches on the next
        // blank, which the next `backBuffer()` waits for (as a page flip).
        if options.presentNanoseconds > 0 {
            // A transfer in flight finishes, also when a stop is requested.
            waitClock.finish(until: begun + options.presentNanoseconds)
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

/// Memory that reads as zero until written, valid while the object lives:
/// what a simulated display keeps its buffers in.
public protocol ZeroedMemory: AnyObject {
    var bytes: UnsafeMutableRawBufferPointer { get }
}

/// Zeroed memory from the heap (cleared here: the allocator may reuse memory).
final class HeapMemory: ZeroedMemory {
    let bytes: UnsafeMutableRawBufferPointer

    init(byteCount: Int) {
        bytes = .allocate(byteCount: max(byteCount, 1), alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { bytes.deallocate() }
}
