import FBRaster
import FBScheduler
import Testing
import _FBTestSupport

@testable import FBDisplay

/// The simulated display's lifecycle: buffers and their ages, what the screen
/// shows, how long presents take and where they latch.
@Suite struct SimulatedDisplayTests {
    func open(_ name: String, clock: ManualClock = ManualClock()) throws -> SimulatedDisplay {
        guard case let .simulated(options) = try DeviceName.parse(name) else {
            throw DeviceName.ParseError(description: "not a sim")
        }
        return SimulatedDisplay(options, systemClock: clock)
    }

    /// Every pixel byte of a surface, row by row.
    func bytes(_ s: Surface) -> [UInt8] {
        let row = s.width * s.format.bytesPerPixel
        return (0..<s.height).flatMap { y in
            [UInt8](UnsafeRawBufferPointer(start: s.base + y * s.stride, count: row))
        }
    }

    func fill(_ s: Surface, _ value: UInt8) {
        for y in 0..<s.height {
            (s.base + y * s.stride).initializeMemory(
                as: UInt8.self, repeating: value, count: s.width * s.format.bytesPerPixel)
        }
    }

    @Test func describesItself() throws {
        let d = try open("sim:320x240:rgb565?refresh=50")
        #expect(d.description.width == 320 && d.description.height == 240)
        #expect(d.description.format == .rgb565)
        #expect(d.description.refreshHz == 50)
        #expect(d.description.name.hasPrefix("sim:320x240:rgb565"))
        #expect(d.clock == nil)
        let v = try open("sim:8x8?clock=virtual")
        #expect(v.clock is ManualClock)
        #expect(v.description.format == .xrgb8888)
    }

    @Test func backBufferAgesAndSwaps() throws {
        let d = try open("sim:16x8:xrgb8888?clock=virtual")
        var ages: [Int] = []
        var bases: [UnsafeMutableRawPointer] = []
        for _ in 0..<6 {
            let back = try d.backBuffer()
            ages.append(back.age)
            bases.append(back.surface.base)
            #expect(back.surface.base != d.screen.base)
            try d.present(damage: [back.surface.bounds])
            #expect(d.screen.base == back.surface.base)
        }
        #expect(ages == [0, 0, 2, 2, 2, 2])
        #expect(bases[0] != bases[1])
        #expect(bases[2] == bases[0] && bases[3] == bases[1])
        #expect(d.presentCount == 6)
    }

    @Test func screenShowsTheLastPresentAndTheBackHoldsTheOneBefore() throws {
        let d = try open("sim:7x5:rgb888?clock=virtual")
        #expect(bytes(d.screen) == [UInt8](repeating: 0, count: 7 * 5 * 3))
        for (i, value) in [UInt8(0x11), 0x22, 0x33, 0x44].enumerated() {
            let back = try d.backBuffer()
            if i >= 2 {
                // Age 2: the buffer holds what was presented two presents ago.
                #expect(bytes(back.surface) == [UInt8](repeating: value - 0x22, count: 7 * 5 * 3))
            }
            fill(back.surface, value)
            try d.present(damage: [IntRect(x: 0, y: 0, width: 7, height: 5)])
            #expect(bytes(d.screen) == [UInt8](repeating: value, count: 7 * 5 * 3))
        }
    }

    /// Zeroed memory the test hands out, as the kernel's mapping would be.
    final class Block: ZeroedMemory {
        let bytes: UnsafeMutableRawBufferPointer
        init(_ count: Int) {
            bytes = .allocate(byteCount: count, alignment: 64)
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
        }
        deinit { bytes.deallocate() }
    }

    /// The two buffers live in the memory the opener gives (the kernel's
    /// mapping, for fbanim), apart; without any, in the heap, zeroed.
    @Test func buffersLiveInTheMemoryGiven() throws {
        guard case let .simulated(options) = try DeviceName.parse("sim:7x5:rgb888") else {
            throw DeviceName.ParseError(description: "not a sim")
        }
        var asked: [Int] = []
        var block: Block?
        let d = SimulatedDisplay(
            options, systemClock: ManualClock(),
            memory: { count in
                asked.append(count)
                block = Block(count)
                return block
            })
        let memory = try #require(block).bytes
        let back = try d.backBuffer()
        #expect(asked.count == 1 && asked[0] >= 2 * 7 * 5 * 3)
        let start = try #require(memory.baseAddress)
        for base in [d.screen.base, back.surface.base] {
            #expect(base >= start && base + 7 * 5 * 3 <= start + memory.count)
        }
        #expect(abs(d.screen.base - back.surface.base) >= 7 * 5 * 3)
        let heap = SimulatedDisplay(options, systemClock: ManualClock(), memory: { _ in nil })
        #expect(bytes(heap.screen) == [UInt8](repeating: 0, count: 7 * 5 * 3))
        let other = try heap.backBuffer().surface
        #expect(bytes(other) == [UInt8](repeating: 0, count: 7 * 5 * 3))
    }

    @Test(arguments: ["0", "5", "12.5", "0.000001", "50"])
    func presentTakesPresentMsOnTheVirtualClock(ms: String) throws {
        let d = try open("sim:8x8?clock=virtual&present_ms=\(ms)")
        let clock = try #require(d.clock)
        let expected = UInt64((Double(ms)! * 1e6).rounded())
        for _ in 0..<5 {
            let back = try d.backBuffer()
            let before = clock.now()
            try d.present(damage: [back.surface.bounds])
            #expect(clock.now() - before == expected)
        }
    }

    @Test(arguments: [1, 24, 50, 60, 144, 1000])
    func presentsLatchOnTheNextBlank(refresh: Int) throws {
        // On a system clock (here a manual one that started long ago) and on
        // the virtual one: the flip a present queues happens on the first
        // blank (blank k at floor(k * 1e9 / refresh) from opening, exact as
        // the scheduler's slots) at or after the end of its transfer; the
        // next back buffer is free from then.
        var rng = SeededRandom(seed: UInt64(refresh))
        let system = ManualClock(start: 987_654_321_012)
        for name in [
            "sim:8x8?present_ms=3&refresh=\(refresh)",
            "sim:8x8?present_ms=3&clock=virtual&refresh=\(refresh)",
        ] {
            let d = try open(name, clock: system)
            let clock = (d.clock as? ManualClock) ?? system
            let opened = clock.now()
            let period = 1_000_000_000 / UInt64(refresh)
            let hz = UInt64(refresh)
            for _ in 0..<40 {
                clock.advance(by: UInt64.random(in: 0...3 * period, using: &rng))
                let back = try d.backBuffer()
                try d.present(damage: [back.surface.bounds])
                let transferred = clock.now() - opened
                _ = try d.backBuffer()
                let latched = clock.now() - opened
                let k = (transferred * hz + 999_999_999) / 1_000_000_000
                #expect(latched == k * 1_000_000_000 / hz, "\(name)")
                #expect(latched >= transferred && latched <= transferred + period, "\(name)")
                // Without a present pending, the back buffer is there at once.
                let again = clock.now()
                _ = try d.backBuffer()
                #expect(clock.now() == again)
            }
        }
    }

    /// A present made the moment the last flip latched (a fast frame right
    /// after waiting for its buffer) latches on the next blank, not on the
    /// same one: at most one picture per blank.
    @Test(arguments: [30, 60, 144])
    func onePresentPerBlank(refresh: Int) throws {
        let d = try open("sim:8x8?clock=virtual&refresh=\(refresh)")
        let clock = try #require(d.clock)
        let opened = clock.now()
        var latched: [UInt64] = []
        for _ in 0..<12 {
            let back = try d.backBuffer()  // waits for the flip before: a blank
            try d.present(damage: [back.surface.bounds])
            _ = try d.backBuffer()
            latched.append(clock.now() - opened)
        }
        let blanks = (0..<12).map { UInt64($0) * 1_000_000_000 / UInt64(refresh) }
        #expect(latched == blanks)
    }

    @Test func virtualClockLeavesTheSystemClockAlone() throws {
        let system = ManualClock(start: 42)
        let d = try open("sim:8x8?clock=virtual&present_ms=20", clock: system)
        for _ in 0..<3 {
            let back = try d.backBuffer()
            try d.present(damage: [back.surface.bounds])
        }
        #expect(system.now() == 42)
        #expect(d.clock!.now() >= 60_000_000)
    }

    @Test func pixelsPresentedSumsTheClippedDamage() throws {
        let d = try open("sim:100x50?clock=virtual")
        _ = try d.backBuffer()
        try d.present(damage: [
            IntRect(x: 10, y: 10, width: 20, height: 5),  // 100, inside
            IntRect(x: -5, y: -5, width: 10, height: 10),  // 25 once clipped
            IntRect(x: 95, y: 45, width: 20, height: 20),  // 25 once clipped
            IntRect(x: 200, y: 0, width: 10, height: 10),  // outside: nothing
            IntRect(x: 0, y: 0, width: 0, height: 9),  // empty
        ])
        #expect(d.pixelsPresented == 150)
        #expect(
            d.lastDamage == [
                IntRect(x: 10, y: 10, width: 20, height: 5),
                IntRect(x: 0, y: 0, width: 5, height: 5),
                IntRect(x: 95, y: 45, width: 5, height: 5),
            ])
        _ = try d.backBuffer()
        try d.present(damage: [IntRect(x: 0, y: 0, width: 100, height: 50)])
        #expect(d.pixelsPresented == 150 + 5_000)
        #expect(d.lastDamage == [IntRect(x: 0, y: 0, width: 100, height: 50)])
        _ = try d.backBuffer()
        try d.present(damage: [])
        #expect(d.pixelsPresented == 5_150)
        #expect(d.lastDamage.isEmpty)
        #expect(d.presentCount == 3)
    }

    @Test func closeIsIdempotent() throws {
        let d = try open("sim:8x8")
        #expect(!d.isClosed)
        d.close()
        #expect(d.isClosed)
        d.close()
        #expect(d.isClosed)
    }

    @Test func presentAfterCloseIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            let d = SimulatedDisplay(
                SimulatedDisplay.Options(width: 4, height: 4), systemClock: ManualClock())
            d.close()
            try? d.present(damage: [])
        }
    }
}
