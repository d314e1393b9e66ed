import CFBLinux
import FBLinux
import Glibc
import Testing

/// The console's mode switch and device discovery, against the mocked kernel.
@Suite struct ConsoleAndDiscoveryTests {
    @Test func graphicsModeWhileUpTextModeAndCursorAfter() throws {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/tty0"]
        let console = try #require(Console.enterGraphics(system: mock))
        #expect(mock.trace == ["open /dev/tty0", "ioctl KDSETMODE 1", "write \\e[?25l"])
        console.restore()
        console.restore()
        #expect(mock.trace.suffix(3) == ["ioctl KDSETMODE 0", "write \\e[?25h", "close 3"])
    }

    @Test func noVirtualTerminalIsSkippedSilently() {
        let mock = MockSystemCalls()
        #expect(Console.enterGraphics(system: mock) == nil)
        #expect(mock.trace == ["open /dev/tty0"])
        // A tty0 that refuses the switch (not ours, or not a VT): closed again, nothing written.
        mock.devices = ["/dev/tty0"]
        mock.ioctlErrors["KDSETMODE"] = EPERM
        #expect(Console.enterGraphics(system: mock) == nil)
        #expect(mock.trace.suffix(3) == ["open /dev/tty0", "ioctl KDSETMODE 1", "close 3"])
    }

    @Test func displaysRestoreTheirConsoleOnClose() throws {
        let mock = FakeFramebuffer.mock(
            FramebufferDisplayTests.rgb565, FramebufferDisplayTests.rgb565Fixed)
        mock.devices.insert("/dev/tty0")
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        display.console = Console.enterGraphics(system: mock)
        display.close()
        #expect(
            mock.trace.suffix(5) == [
                "munmap 157440", "close 3", "ioctl KDSETMODE 0", "write \\e[?25h", "close 4",
            ])
    }

    @Test func devicesAreFoundInNumberOrder() {
        let mock = MockSystemCalls()
        mock.devices = [
            "/dev/dri/card10", "/dev/dri/card2", "/dev/dri/renderD128", "/dev/dri/cardX",
        ]
        #expect(DeviceDiscovery.drmCards(system: mock) == ["/dev/dri/card2", "/dev/dri/card10"])
        mock.devices = ["/dev/fb1", "/dev/fb0", "/dev/fbcon"]
        #expect(DeviceDiscovery.framebuffers(system: mock) == ["/dev/fb0", "/dev/fb1"])
    }

    @Test func framebufferProbeReportsGeometryOrWhy() {
        let mock = FakeFramebuffer.mock(
            FramebufferDisplayTests.rgb565, FramebufferDisplayTests.rgb565Fixed)
        let report = DeviceDiscovery.probeFramebuffer("/dev/fb0", system: mock)
        #expect((try? report.geometry.get())?.format == .rgb565)
        #expect(!mock.trace.contains { $0.hasPrefix("mmap") })
        let missing = DeviceDiscovery.probeFramebuffer("/dev/fb3", system: mock)
        #expect(throws: DeviceError.self) { try missing.geometry.get() }
    }

    @Test func fourccNames() {
        #expect(DeviceDiscovery.fourccName(fbl_DRM_FORMAT_XRGB8888) == "XR24")
        #expect(DeviceDiscovery.fourccName(fbl_DRM_FORMAT_RGB565) == "RG16")
        #expect(DeviceDiscovery.fourccName(0) == "0x0")
    }

    @Test func deviceErrorsByErrno() {
        #expect(
            DeviceError.opening("/dev/fb0", SystemError(errno: ENOENT, call: "open")).kind
                == .missing)
        #expect(
            DeviceError.opening("/dev/fb0", SystemError(errno: EACCES, call: "open")).kind
                == .permissionDenied)
        #expect(
            DeviceError.opening("/dev/fb0", SystemError(errno: ENXIO, call: "open")).kind
                == .unusable)
    }
}
