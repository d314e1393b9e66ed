import CFBLinux
import FBDisplay
import FBLinux
import FBRaster
import Glibc
import Testing

/// The fbdev backend against a mocked kernel: which calls it makes, what it
/// makes of the screen info, and what it copies to the device.
@Suite struct FramebufferDisplayTests {
    /// A 320x240 RGB565 panel whose rows are padded to 656 bytes (an SPI panel driver might).
    static let rgb565 = FakeFramebuffer.variable(
        width: 320, height: 240, bpp: 16, red: (11, 5), green: (5, 6), blue: (0, 5))
    static let rgb565Fixed = FakeFramebuffer.fixed(
        id: "fb_ili9341", lineLength: 656, memory: 656 * 240)

    @Test func rgb565BitfieldsGiveRGB565AndLineLengthIsTheStride() throws {
        let mock = FakeFramebuffer.mock(Self.rgb565, Self.rgb565Fixed)
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        #expect(display.description.format == .rgb565)
        #expect(display.description.width == 320 && display.description.height == 240)
        #expect(display.description.name == "/dev/fb0 (fb_ili9341)")
        #expect(display.geometry.stride == 656)
        #expect(display.geometry.pages == 1)
        #expect(
            mock.trace == [
                "open /dev/fb0", "ioctl FBIOGET_FSCREENINFO", "ioctl FBIOGET_VSCREENINFO",
                "mmap 157440 at 0",
            ])
        display.close()
        display.close()
        #expect(mock.trace.suffix(2) == ["munmap 157440", "close 3"])
    }

    /// fbtft's screen info, as fbtft_framebuffer_alloc() fills it for the
    /// PiTFT 2.8" (fb_ili9340, rotate=90): 320x240 RGB565, `nonstd = 1`,
    /// rows of exactly 640 bytes, no pixel clock. It is drawn (it was refused).
    @Test func fbtftScreenInfoIsRGB565() throws {
        var variable = FakeFramebuffer.variable(
            width: 320, height: 240, bpp: 16, red: (11, 5), green: (5, 6), blue: (0, 5))
        variable.nonstd = 1
        variable.rotate = 90
        let mock = FakeFramebuffer.mock(
            variable, FakeFramebuffer.fixed(id: "fb_ili9340", lineLength: 640, memory: 153_600))
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        defer { display.close() }
        #expect(display.description.format == .rgb565)
        #expect(display.description.name == "/dev/fb0 (fb_ili9340)")
        #expect(display.description.refreshHz == nil && display.geometry.pages == 1)
    }

    /// Every layout fbanim draws, and some it does not, as drivers report them.
    @Test func bitfieldsMapToFormats() {
        func layout(
            _ bpp: Int, _ r: (Int, Int), _ g: (Int, Int), _ b: (Int, Int), _ a: (Int, Int) = (0, 0)
        )
            -> PixelFormat?
        {
            FramebufferPixelLayout(
                bitsPerPixel: bpp, red: ChannelBits(offset: r.0, length: r.1),
                green: ChannelBits(offset: g.0, length: g.1),
                blue: ChannelBits(offset: b.0, length: b.1),
                transparency: ChannelBits(offset: a.0, length: a.1)
            ).pixelFormat
        }
        #expect(layout(16, (11, 5), (5, 6), (0, 5)) == .rgb565)
        #expect(layout(16, (0, 5), (5, 6), (11, 5)) == .bgr565)
        #expect(layout(32, (16, 8), (8, 8), (0, 8)) == .xrgb8888)
        #expect(layout(32, (16, 8), (8, 8), (0, 8), (24, 8)) == .argb8888)
        #expect(layout(32, (0, 8), (8, 8), (16, 8)) == .xbgr8888)
        #expect(layout(24, (16, 8), (8, 8), (0, 8)) == .rgb888)
        // Not drawn: RGB555, 8-bit palette, 30-bit colour, BGR888 at 24 bpp, a 16-bit depth in 32 bits.
        #expect(layout(16, (10, 5), (5, 5), (0, 5)) == nil)
        #expect(layout(8, (0, 8), (0, 8), (0, 8)) == nil)
        #expect(layout(32, (20, 10), (10, 10), (0, 10)) == nil)
        #expect(layout(24, (0, 8), (8, 8), (16, 8)) == nil)
        #expect(layout(32, (11, 5), (5, 6), (0, 5)) == nil)
    }

    @Test func unsupportedLayoutIsRefusedWithTheLayoutNamed() {
        let rgb555 = FakeFramebuffer.variable(
            width: 320, height: 240, bpp: 16, red: (10, 5), green: (5, 5), blue: (0, 5))
        let mock = FakeFramebuffer.mock(rgb555, Self.rgb565Fixed)
        let error = #expect(throws: DeviceError.self) {
            try FramebufferDisplay(path: "/dev/fb0", system: mock)
        }
        #expect(error?.kind == .unusable)
        #expect(
            error?.description.contains("unsupported pixel layout (16 bpp, r 10/5 g 5/5 b 0/5)")
                == true)
        // Nothing mapped, the device closed.
        #expect(mock.trace.last == "close 3")
        #expect(!mock.trace.contains { $0.hasPrefix("mmap") })
    }

    @Test func somethingThatIsNotAFramebufferIsUnusable() {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/null"]
        mock.ioctlErrors["FBIOGET_FSCREENINFO"] = ENOTTY
        let error = #expect(throws: DeviceError.self) {
            try FramebufferDisplay(path: "/dev/null", system: mock)
        }
        #expect(error?.kind == .unusable)
        #expect(error?.description == "/dev/null: not a framebuffer device")
        #expect(mock.trace == ["open /dev/null", "ioctl FBIOGET_FSCREENINFO", "close 3"])
    }

    @Test func missingAndForbiddenDevices() {
        let mock = MockSystemCalls()
        mock.openErrors["/dev/fb1"] = EACCES
        let missing = #expect(throws: DeviceError.self) {
            try FramebufferDisplay(path: "/dev/fb7", system: mock)
        }
        #expect(missing?.kind == .missing)
        let denied = #expect(throws: DeviceError.self) {
            try FramebufferDisplay(path: "/dev/fb1", system: mock)
        }
        #expect(denied?.kind == .permissionDenied)
    }

    /// The first present copies the whole screen, later ones only the damage.
    @Test func presentCopiesOnlyTheDamagedRectangles() throws {
        let mock = FakeFramebuffer.mock(Self.rgb565, Self.rgb565Fixed)
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        defer { display.close() }
        let first = try display.backBuffer()
        #expect(first.age == 0)
        try display.present(damage: [first.surface.bounds])
        #expect(display.pixelsCopied == 320 * 240)

        let back = try display.backBuffer()
        #expect(back.age == 1)
        // Paint the whole shadow, but report only a 5x3 rectangle at (10, 20).
        for y in 0..<240 {
            let row = (back.surface.base + y * back.surface.stride).assumingMemoryBound(
                to: UInt16.self)
            for x in 0..<320 { row[x] = 0xF800 }
        }
        try display.present(damage: [IntRect(x: 10, y: 20, width: 5, height: 3)])
        #expect(display.pixelsCopied == 320 * 240 + 15)

        let memory = try #require(mock.mappings.first?.key)
        var red = 0
        for y in 0..<240 {
            let row = (memory + y * 656).assumingMemoryBound(to: UInt16.self)
            for x in 0..<320 where row[x] == 0xF800 {
                red += 1
                #expect((10..<15).contains(x) && (20..<23).contains(y))
            }
        }
        #expect(red == 15)
        // The padding past each row's 640 bytes is never written.
        #expect((memory + 20 * 656 + 640).load(as: UInt64.self) == 0)
    }

    /// A single page laid out as the shadow (bochs-drm's fbdev), 64x32 at 32 bits.
    private func bochsSinglePage() throws -> (MockSystemCalls, FramebufferDisplay) {
        let v = FakeFramebuffer.variable(
            width: 64, height: 32, bpp: 32, red: (16, 8), green: (8, 8), blue: (0, 8))
        let mock = FakeFramebuffer.mock(
            v, FakeFramebuffer.fixed(id: "bochs-drmdrmfb", lineLength: 256, memory: 256 * 32))
        return (mock, try FramebufferDisplay(path: "/dev/fb0", system: mock))
    }

    /// A single page laid out as the shadow (bochs-drm's fbdev): the damage goes by `pwrite`,
    /// one call a band of rows from its first byte to its last, never through the mapping
    /// (DRM fbdev emulation's deferred I/O faults on each page written there); a driver that
    /// refuses `pwrite` gets the mapping from then on.
    @Test func aSinglePageGetsTheDamageByPwrite() throws {
        let (mock, display) = try bochsSinglePage()
        defer { display.close() }
        let raster = Rasterizer()
        var back = try display.backBuffer()
        raster.clear(back.surface, to: Color(rgb: 0x0010_2040))
        var mark = mock.trace.count
        try display.present(damage: [back.surface.bounds])
        #expect(mock.calls(since: mark) == ["ioctl FBIOGET_VSCREENINFO", "pwrite 8192 at 0"])
        back = try display.backBuffer()
        let rect = IntRect(x: 10, y: 20, width: 5, height: 3)
        raster.clear(back.surface, to: Color(rgb: 0x00FF_0000), in: rect)
        mark = mock.trace.count
        try display.present(damage: [rect])
        // From (10, 20) to the end of (14, 22): 2 rows of 256 bytes and 5 pixels, less 10 pixels.
        #expect(mock.calls(since: mark) == ["ioctl FBIOGET_VSCREENINFO", "pwrite 532 at 5160"])
        #expect(display.pixelsCopied == 64 * 32 + 15)
        let memory = try #require(mock.mappings.first?.key)
        func screen(_ x: Int, _ y: Int) -> UInt32 {
            (memory + y * 256 + x * 4).load(as: UInt32.self) & 0xFF_FFFF
        }
        #expect(screen(10, 20) == 0xFF_0000 && screen(14, 22) == 0xFF_0000)
        #expect(screen(9, 20) == 0x10_2040 && screen(15, 22) == 0x10_2040)
        #expect(screen(0, 0) == 0x10_2040 && screen(63, 31) == 0x10_2040)

        mock.pwriteError = EINVAL
        back = try display.backBuffer()
        raster.clear(back.surface, to: Color(rgb: 0x0000_FF00), in: rect)
        mark = mock.trace.count
        try display.present(damage: [rect])
        #expect(mock.calls(since: mark) == ["ioctl FBIOGET_VSCREENINFO", "pwrite 532 at 5160"])
        #expect(screen(12, 21) == 0x00_FF00)
        raster.clear(back.surface, to: Color(rgb: 0x0000_00FF), in: rect)
        mark = mock.trace.count
        try display.present(damage: [rect])
        #expect(mock.calls(since: mark) == ["ioctl FBIOGET_VSCREENINFO"])
        #expect(screen(12, 21) == 0x00_00FF && display.pixelsCopied == 64 * 32 + 45)
    }

    /// Rectangles that share rows (side by side or overlapping, as a
    /// spinner's leaves do) go in one `pwrite` for their band of rows, from
    /// its first changed byte to its last, so no row is written twice; a
    /// band of rows of its own gets its own.
    @Test func rectanglesSharingRowsGoInOnePwrite() throws {
        let (mock, display) = try bochsSinglePage()
        defer { display.close() }
        let raster = Rasterizer()
        var back = try display.backBuffer()
        raster.clear(back.surface, to: Color(rgb: 0x0010_2040))
        try display.present(damage: [back.surface.bounds])
        back = try display.backBuffer()
        let a = IntRect(x: 40, y: 10, width: 5, height: 3)
        let b = IntRect(x: 10, y: 11, width: 5, height: 4)
        let c = IntRect(x: 12, y: 25, width: 3, height: 2)
        for r in [a, b, c] { raster.clear(back.surface, to: Color(rgb: 0x00FF_0000), in: r) }
        let mark = mock.trace.count
        try display.present(damage: [c, b, a, b])
        // Rows 10-14: from (40, 10) to the end of (14, 14); rows 25-26 alone.
        #expect(
            mock.calls(since: mark) == [
                "ioctl FBIOGET_VSCREENINFO", "pwrite 924 at 2720", "pwrite 268 at 6448",
            ])
        let memory = try #require(mock.mappings.first?.key)
        for r in [a, b, c] {
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX {
                    #expect(
                        (memory + y * 256 + x * 4).load(as: UInt32.self) & 0xFF_FFFF == 0xFF_0000)
                }
            }
        }
    }

    /// With room for two pages: draw into the hidden one, pan to it, wait for vsync before the next.
    @Test func doubleBufferedDevicesPanAndWaitForVSync() throws {
        let v = FakeFramebuffer.variable(
            width: 64, height: 32, virtualHeight: 64, bpp: 32, red: (16, 8), green: (8, 8),
            blue: (0, 8))
        let mock = FakeFramebuffer.mock(
            v, FakeFramebuffer.fixed(id: "vc4drmfb", lineLength: 256, memory: 256 * 64))
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        defer { display.close() }
        #expect(display.geometry.pages == 2)
        let screen = IntRect(x: 0, y: 0, width: 64, height: 32)
        _ = try display.backBuffer()
        var mark = mock.trace.count
        try display.present(damage: [screen])
        #expect(mock.calls(since: mark) == ["ioctl FBIOGET_VSCREENINFO", "ioctl FBIOPAN_DISPLAY"])
        let pan = panned(mock)
        #expect(pan.yoffset == 32 && pan.activate == fbl_FB_ACTIVATE_VBL)

        mark = mock.trace.count
        _ = try display.backBuffer()
        #expect(mock.calls(since: mark) == ["ioctl FBIO_WAITFORVSYNC"])
        try display.present(damage: [screen])
        #expect(panned(mock).yoffset == 0)

        // A driver without FBIO_WAITFORVSYNC is not asked again.
        mock.ioctlErrors["FBIO_WAITFORVSYNC"] = ENOTTY
        _ = try display.backBuffer()
        try display.present(damage: [IntRect(x: 1, y: 1, width: 2, height: 2)])
        mark = mock.trace.count
        _ = try display.backBuffer()
        #expect(mock.calls(since: mark).isEmpty)
        // Page 1 was two frames old: it got this frame's damage and the last frame's (all of it).
        #expect(display.pixelsCopied == 3 * 64 * 32 + 4)
    }

    @Test func aDeviceThatFailsWhilePanningThrowsSystemError() throws {
        let v = FakeFramebuffer.variable(
            width: 64, height: 32, virtualHeight: 64, bpp: 32, red: (16, 8), green: (8, 8),
            blue: (0, 8))
        let mock = FakeFramebuffer.mock(
            v, FakeFramebuffer.fixed(id: "x", lineLength: 256, memory: 256 * 64))
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        defer { display.close() }
        mock.ioctlErrors["FBIOPAN_DISPLAY"] = ENODEV
        _ = try display.backBuffer()
        #expect(throws: SystemError(errno: ENODEV, call: "FBIOPAN_DISPLAY")) {
            try display.present(damage: [IntRect(x: 0, y: 0, width: 64, height: 32)])
        }
    }

    /// An unplugged device (its driver unbound) answers ENODEV: present says so (exit 74).
    @Test func anUnpluggedDeviceIsNoticedAtTheNextPresent() throws {
        let mock = FakeFramebuffer.mock(Self.rgb565, Self.rgb565Fixed)
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        defer { display.close() }
        let back = try display.backBuffer()
        try display.present(damage: [back.surface.bounds])
        mock.ioctlErrors["FBIOGET_VSCREENINFO"] = ENODEV
        #expect(throws: SystemError(errno: ENODEV, call: "FBIOGET_VSCREENINFO")) {
            try display.present(damage: [back.surface.bounds])
        }
    }

    private func panned(_ mock: MockSystemCalls) -> fb_var_screeninfo {
        let bytes = mock.ioctlArguments["FBIOPAN_DISPLAY"] ?? []
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: fb_var_screeninfo.self) }
    }
}
