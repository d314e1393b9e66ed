import FBDisplay
import FBRaster
import FBScheduler
import Glibc
import Testing

@testable import FBLinux

/// The simulated display's buffers in memory mapped for them.
@Suite struct MappedMemoryTests {
    /// Small blocks and huge-page ones (from 2 MiB on, begun on a 2 MiB
    /// boundary, the mapping cut around them): every byte there, zero.
    @Test(arguments: [1, 4095, 4096, 2 << 20, 3_072_000, 5 << 20 + 1])
    func mappedMemoryIsZeroedAndWritable(count: Int) throws {
        let memory = try #require(MappedMemory(byteCount: count))
        #expect(memory.bytes.count == count)
        let base = UInt(bitPattern: memory.bytes.baseAddress)
        #expect(count < 2 << 20 || base % UInt(2 << 20) == 0)
        #expect(memory.bytes.allSatisfy { $0 == 0 })
        memory.bytes[count - 1] = 0xA5
        memory.bytes[0] = 0x5A
        #expect(memory.bytes[0] == 0x5A && memory.bytes[count - 1] == (count == 1 ? 0x5A : 0xA5))
    }

    /// A display on mapped memory draws and shows as on the heap's.
    @Test func aSimulatedDisplayDrawsIntoIt() throws {
        var options = SimulatedDisplay.Options(width: 64, height: 48)
        options.format = .rgb565
        let display = SimulatedDisplay(
            options, systemClock: ManualClock(), memory: { MappedMemory(byteCount: $0) })
        for value in [UInt8(0x11), 0x22, 0x33] {
            let back = try display.backBuffer()
            for y in 0..<48 {
                (back.surface.base + y * back.surface.stride).initializeMemory(
                    as: UInt8.self, repeating: value, count: 64 * 2)
            }
            try display.present(damage: [back.surface.bounds])
            #expect(display.screen.pixel(x: 63, y: 47) == back.surface.pixel(x: 63, y: 47))
            #expect(display.screen.base == back.surface.base)
        }
    }

    /// No memory to give: `nil`, not a trap; advice the kernel refuses
    /// (no huge pages, a kernel before 5.14) still gives the memory.
    @Test(arguments: [4096, 3_072_000])
    func failuresGoThroughTheFunnel(count: Int) throws {
        let refused = FailingMemoryCalls(failMapping: true)
        #expect(MappedMemory(byteCount: count, system: refused) == nil)
        #expect(refused.calls.contains("mmap"))
        let noAdvice = FailingMemoryCalls(failMapping: false)
        let memory = try #require(MappedMemory(byteCount: count, system: noAdvice))
        #expect(memory.bytes.allSatisfy { $0 == 0 })
        #expect(count < 2 << 20 || noAdvice.calls.filter { $0 == "madvise" }.count == 2)
    }
}

/// The real calls, but `mmap` refused with ENOMEM if asked, and `madvise` always refused.
private final class FailingMemoryCalls: SystemCalls {
    let failMapping: Bool
    var calls: [String] = []
    init(failMapping: Bool) { self.failMapping = failMapping }

    func mapAnonymous(length: Int, flags: Int32) throws(SystemError) -> UnsafeMutableRawPointer {
        calls.append("mmap")
        if failMapping { throw SystemError(errno: ENOMEM, call: "mmap") }
        return try LinuxSystemCalls.shared.mapAnonymous(length: length, flags: flags)
    }

    func advise(_ address: UnsafeMutableRawPointer, length: Int, _ advice: Int32)
        throws(SystemError)
    {
        calls.append("madvise")
        throw SystemError(errno: EINVAL, call: "madvise")
    }
}
