import CDRM
import CFBLinux
import FBDisplay
import FBRaster
import Glibc
import Testing

@testable import FBLinux

/// Handing the screen over (boot.md, Hand-over and console) on the mocked
/// kernel: deactivate, reactivate, quit with the picture retained, a console
/// that was switched back to text. Traces are read as in DRMDisplayTests.
@Suite struct HandOverTests {
    static let virtual = UInt32(DRM_MODE_CONNECTOR_VIRTUAL)
    static let hdmi = UInt32(DRM_MODE_CONNECTOR_HDMIA)
    static let dsi = UInt32(DRM_MODE_CONNECTOR_DSI)

    /// One 64x32 output scanned out from memory: page flips, two buffers.
    /// Its buffers' framebuffers are 102 (buffer 0, made first) and 104
    /// (buffer 1, made after the DirtyFB probe); CRTC 40. The console
    /// (`/dev/tty0`) is held in graphics mode on fd 4 (the card is fd 3).
    static func flipping(console: Bool = false) throws -> (MockModeSetting, DRMDisplay) {
        let kms = MockModeSetting.card([("Virtual-1", virtual, 64, 32)])
        kms.errors["DirtyFB"] = ENOSYS
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        if console {
            kms.system.devices.insert("/dev/tty0")
            display.console = Console.enterGraphics(system: kms.system)
        }
        return (kms, display)
    }

    /// Shows `count` frames, each with the whole screen as damage.
    static func present(_ display: DRMDisplay, frames count: Int) throws {
        for _ in 0..<count {
            let back = try display.backBuffer()
            try display.present(damage: [back.surface.bounds])
        }
    }

    // MARK: deactivate and reactivate

    @Test func deactivateWaitsForTheFlipThenDropsMaster() throws {
        let (kms, display) = try Self.flipping()
        defer { display.close() }
        // The first frame sets the CRTC (fb 104); the second flips to fb 102: a flip in flight.
        try Self.present(display, frames: 2)
        #expect(kms.system.trace.suffix(1) == ["PageFlip 40 fb 102"])
        var mark = kms.system.trace.count
        display.deactivate()
        #expect(kms.system.calls(since: mark) == ["poll", "drmHandleEvent", "drmDropMaster"])
        // The buffers and the picture stay; twice is once.
        mark = kms.system.trace.count
        display.deactivate()
        #expect(kms.system.calls(since: mark).isEmpty)
        #expect(kms.crtcStates[CRTCID(rawValue: 40)!]?.framebuffer == FramebufferID(rawValue: 102))
    }

    /// Back from another program: master first, then every CRTC is set with
    /// the next frame (a mode set, not a flip), then flips again.
    @Test func reactivateTakesMasterAndSetsEachCRTC() throws {
        let kms = MockModeSetting.card([
            ("DSI-1", Self.dsi, 64, 32), ("HDMI-A-1", Self.hdmi, 128, 64),
        ])
        kms.errors["DirtyFB"] = ENOSYS
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        defer { display.close() }
        // Buffers: DSI-1 102 and 106, HDMI-A-1 104 and 108 (the second ones
        // are made after the DirtyFB probe). Frames alternate between them:
        // the first shows 106/108, the second 102/104, the third 106/108 again.
        try Self.present(display, frames: 2)
        display.deactivate()
        let mark = kms.system.trace.count
        try display.reactivate()
        try Self.present(display, frames: 1)
        #expect(
            kms.system.calls(since: mark) == [
                "drmSetMaster", "SetCrtc 40 fb 106 64x32", "SetCrtc 41 fb 108 128x64",
            ])
        let next = kms.system.trace.count
        try Self.present(display, frames: 1)
        // A mode set queues no flip event: nothing to wait for before flipping.
        #expect(kms.system.calls(since: next) == ["PageFlip 40 fb 102", "PageFlip 41 fb 104"])
    }

    @Test func reactivateWhileAnotherProgramIsMasterThrowsAndStaysDeactivated() throws {
        let (kms, display) = try Self.flipping()
        try Self.present(display, frames: 2)
        display.deactivate()
        kms.errors["drmSetMaster"] = EBUSY
        #expect(throws: SystemError(errno: EBUSY, call: "drmSetMaster")) {
            try display.reactivate()
        }
        // Still not master: the next try asks again, and a close drops nothing.
        kms.errors["drmSetMaster"] = nil
        var mark = kms.system.trace.count
        try display.reactivate()
        #expect(kms.system.calls(since: mark) == ["drmSetMaster"])
        display.deactivate()
        kms.errors["drmSetMaster"] = EACCES
        #expect(throws: SystemError(errno: EACCES, call: "drmSetMaster")) {
            try display.reactivate()
        }
        mark = kms.system.trace.count
        display.close()
        #expect(!kms.system.calls(since: mark).contains("drmDropMaster"))
        #expect(kms.system.trace.last == "close 3")
        // Closed: nothing to take back.
        #expect(throws: SystemError(errno: EBADF, call: "reactivate after close")) {
            try display.reactivate()
        }
    }

    @Test func invalidateScreenMakesTheNextPresentAModeSet() throws {
        let (kms, display) = try Self.flipping()
        defer { display.close() }
        try Self.present(display, frames: 2)  // on screen: fb 102
        display.invalidateScreen()
        var mark = kms.system.trace.count
        try Self.present(display, frames: 1)
        #expect(
            kms.system.calls(since: mark) == ["poll", "drmHandleEvent", "SetCrtc 40 fb 104 64x32"])
        mark = kms.system.trace.count
        try Self.present(display, frames: 1)
        #expect(kms.system.calls(since: mark) == ["PageFlip 40 fb 102"])

        // A driver that copies damage (one buffer, fb 102): SetCrtc instead of DirtyFB.
        let copying = MockModeSetting.card([("SPI-1", UInt32(DRM_MODE_CONNECTOR_SPI), 32, 16)])
        let spi = try DRMDisplay(path: "/dev/dri/card0", system: copying.system, kms: copying)
        defer { spi.close() }
        #expect(spi.presentation == .damage)
        try Self.present(spi, frames: 2)
        spi.invalidateScreen()
        mark = copying.system.trace.count
        try Self.present(spi, frames: 1)
        #expect(copying.system.calls(since: mark) == ["SetCrtc 40 fb 102 32x16"])
        mark = copying.system.trace.count
        try Self.present(spi, frames: 1)
        #expect(copying.system.calls(since: mark) == ["DirtyFB 102 [0,0 32x16]"])
    }

    // MARK: quit --retain

    /// With CLOSEFB (Linux 6.8): the framebuffer on screen is closed (the
    /// plane keeps showing it), nothing is restored, the device is released.
    @Test func closeRetainingPictureWithCloseFB() throws {
        let (kms, display) = try Self.flipping(console: true)
        try Self.present(display, frames: 2)  // on screen: fb 102, its flip in flight
        let mark = kms.system.trace.count
        #expect(display.closeRetainingPicture() == false)
        let calls = kms.system.calls(since: mark)
        #expect(calls.filter { $0.hasPrefix("CLOSEFB") } == ["CLOSEFB 102"])
        // The flip lands before anything is closed; the console is let go as it is.
        #expect(Array(calls.prefix(3)) == ["poll", "drmHandleEvent", "close 4"])
        #expect(!calls.contains { $0.hasPrefix("SetCrtc") || $0.hasPrefix("ioctl KDSETMODE") })
        #expect(!calls.contains { $0.hasPrefix("write") })
        #expect(calls.contains("drmDropMaster"))
        #expect(calls.firstIndex(of: "CLOSEFB 102")! < calls.firstIndex(of: "RmFB 104")!)
        #expect(calls.last == "close 3")
        #expect(kms.system.mappings.isEmpty)
        // The CRTC still shows the closed framebuffer: nothing turned it off.
        #expect(kms.crtcStates[CRTCID(rawValue: 40)!]?.framebuffer == FramebufferID(rawValue: 102))
        #expect(!display.isShowingPicture)  // nothing kept to watch
        let after = kms.system.trace.count
        display.close()
        display.releaseRetained()
        #expect(kms.system.calls(since: after).isEmpty)
    }

    /// Two outputs with a driver that copies damage: each one's single buffer is closed.
    @Test func closeRetainingPictureClosesEveryShownFramebuffer() throws {
        let kms = MockModeSetting.card([
            ("DSI-1", Self.dsi, 64, 32), ("HDMI-A-1", Self.hdmi, 128, 64),
        ])
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        #expect(display.presentation == .damage)
        try Self.present(display, frames: 2)
        let mark = kms.system.trace.count
        #expect(display.closeRetainingPicture() == false)
        let calls = kms.system.calls(since: mark)
        #expect(calls.filter { $0.hasPrefix("CLOSEFB") } == ["CLOSEFB 102", "CLOSEFB 104"])
        #expect(!calls.contains { $0.hasPrefix("SetCrtc") })
        #expect(calls.last == "close 3")
    }

    /// Without CLOSEFB (ENOTTY): the device stays open, master dropped, until
    /// another program shows its own framebuffer; then the buffers go and
    /// nothing is restored.
    @Test func closeRetainingPictureWithoutCloseFBKeepsTheDevice() throws {
        let (kms, display) = try Self.flipping(console: true)
        kms.errors["CLOSEFB"] = ENOTTY
        try Self.present(display, frames: 2)  // on screen: fb 102
        var mark = kms.system.trace.count
        #expect(display.closeRetainingPicture() == true)
        #expect(
            kms.system.calls(since: mark) == [
                "poll", "drmHandleEvent", "close 4", "CLOSEFB 102", "drmDropMaster",
            ])
        // Still on screen, asked of the kernel (no master needed).
        mark = kms.system.trace.count
        #expect(display.isShowingPicture)
        #expect(kms.system.calls(since: mark) == ["drmModeGetCrtc 40"])
        // A present now would be a bug; closing again changes nothing.
        mark = kms.system.trace.count
        display.close()
        #expect(kms.system.calls(since: mark).isEmpty)
        #expect(display.isShowingPicture)

        // The display manager sets its own framebuffer.
        let crtc = CRTCID(rawValue: 40)!
        try kms.setCRTC(
            FileDescriptor(rawValue: 9), crtc, framebuffer: FramebufferID(rawValue: 900), x: 0,
            y: 0,
            connectors: [ConnectorID(rawValue: 20)!], mode: .testMode(width: 64, height: 32))
        #expect(!display.isShowingPicture)
        mark = kms.system.trace.count
        display.releaseRetained()
        #expect(
            kms.system.calls(since: mark) == [
                "RmFB 104", "munmap 8192", "DESTROY_DUMB 103",
                "RmFB 102", "munmap 8192", "DESTROY_DUMB 101",
                "close 3",
            ])
        #expect(kms.system.mappings.isEmpty)
        #expect(!display.isShowingPicture)
        mark = kms.system.trace.count
        display.releaseRetained()
        display.close()
        #expect(kms.system.calls(since: mark).isEmpty)
    }

    /// A CRTC turned off by the next program also ends the wait.
    @Test func aCRTCTurnedOffNoLongerShowsThePicture() throws {
        let (kms, display) = try Self.flipping()
        kms.errors["CLOSEFB"] = EINVAL
        try Self.present(display, frames: 1)  // a mode set with fb 104
        #expect(display.closeRetainingPicture() == true)
        #expect(display.isShowingPicture)
        kms.crtcStates[CRTCID(rawValue: 40)!] = CRTCState(
            id: CRTCID(rawValue: 40)!, framebuffer: nil, x: 0, y: 0, mode: nil)
        #expect(!display.isShowingPicture)
        display.releaseRetained()
    }

    /// Handed over and taken back, then told to quit with the picture
    /// retained before the next frame: the picture is still the splash's and
    /// must stay (removing a framebuffer a CRTC shows turns the CRTC off).
    @Test func closeRetainingPictureRightAfterReactivate() throws {
        let (kms, display) = try Self.flipping()
        try Self.present(display, frames: 2)  // on screen: fb 102
        display.deactivate()
        try display.reactivate()
        let mark = kms.system.trace.count
        #expect(display.closeRetainingPicture() == false)
        let calls = kms.system.calls(since: mark)
        #expect(calls.contains("CLOSEFB 102"), "\(calls)")
        #expect(!calls.contains { $0.hasPrefix("SetCrtc") })
        #expect(kms.crtcStates[CRTCID(rawValue: 40)!]?.framebuffer == FramebufferID(rawValue: 102))
    }

    /// The console was switched to text mode (fbcon shows its own
    /// framebuffer): whatever is closed, fbcon's picture is left alone, and
    /// without CLOSEFB nothing is waited for.
    @Test(arguments: [false, true])
    func closeRetainingPictureAfterTheConsoleTookTheScreen(closeFBWorks: Bool) throws {
        let (kms, display) = try Self.flipping()
        if !closeFBWorks { kms.errors["CLOSEFB"] = ENOTTY }
        try Self.present(display, frames: 2)
        display.invalidateScreen()
        let crtc = CRTCID(rawValue: 40)!
        kms.crtcStates[crtc] = CRTCState(
            id: crtc, framebuffer: FramebufferID(rawValue: 7), x: 0, y: 0,
            mode: .testMode(width: 64, height: 32))
        let mark = kms.system.trace.count
        let lingering = display.closeRetainingPicture()
        #expect(!(lingering && display.isShowingPicture))
        if lingering { display.releaseRetained() }
        let calls = kms.system.calls(since: mark)
        #expect(!calls.contains { $0.hasPrefix("SetCrtc") })
        #expect(calls.last == "close 3")
        #expect(kms.crtcStates[crtc]?.framebuffer == FramebufferID(rawValue: 7))
    }

    // MARK: fbdev

    /// After the console painted over the framebuffer (or another program
    /// drew into it), the next present copies the whole screen.
    @Test func framebufferInvalidateAndReactivateCopyTheWholeScreen() throws {
        let mock = FakeFramebuffer.mock(
            FramebufferDisplayTests.rgb565, FramebufferDisplayTests.rgb565Fixed)
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        defer { display.close() }
        let screen = 320 * 240
        let small = IntRect(x: 10, y: 20, width: 5, height: 3)
        var back = try display.backBuffer()
        // The picture: every pixel 0x1234.
        for y in 0..<240 {
            let row = (back.surface.base + y * back.surface.stride).assumingMemoryBound(
                to: UInt16.self)
            for x in 0..<320 { row[x] = 0x1234 }
        }
        try display.present(damage: [back.surface.bounds])
        try display.present(damage: [small])
        #expect(display.pixelsCopied == screen + 15)

        // fbcon scribbles over the device memory; the splash takes the screen back.
        let memory = try #require(mock.mappings.first?.key)
        memset(memory, 0xAB, 656 * 240)
        display.invalidateScreen()
        back = try display.backBuffer()
        try display.present(damage: [small])
        #expect(display.pixelsCopied == 2 * screen + 15)
        var wrong = 0
        for y in 0..<240 {
            let row = (memory + y * 656).assumingMemoryBound(to: UInt16.self)
            for x in 0..<320 where row[x] != 0x1234 { wrong += 1 }
        }
        #expect(wrong == 0)
        try display.present(damage: [small])
        #expect(display.pixelsCopied == 2 * screen + 30)

        // Handed over and back: fbdev has no master, but another program may have drawn.
        let mark = mock.trace.count
        display.deactivate()
        #expect(mock.calls(since: mark).isEmpty)
        try display.reactivate()
        try display.present(damage: [small])
        #expect(display.pixelsCopied == 3 * screen + 30)
    }

    @Test func framebufferCloseRetainingPictureLeavesTheConsoleInGraphics() throws {
        let mock = FakeFramebuffer.mock(
            FramebufferDisplayTests.rgb565, FramebufferDisplayTests.rgb565Fixed)
        mock.devices.insert("/dev/tty0")
        let display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        display.console = Console.enterGraphics(system: mock)
        let back = try display.backBuffer()
        try display.present(damage: [back.surface.bounds])
        let mark = mock.trace.count
        #expect(display.closeRetainingPicture() == false)
        #expect(mock.calls(since: mark) == ["close 4", "munmap 157440", "close 3"])
        #expect(!display.isShowingPicture)
        display.releaseRetained()
        display.close()
        #expect(mock.calls(since: mark).count == 3)
        #expect(throws: SystemError(errno: EBADF, call: "reactivate after close")) {
            try display.reactivate()
        }
    }

    // MARK: the console

    static func console() throws -> (MockSystemCalls, Console) {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/tty0"]
        let console = try #require(Console.enterGraphics(system: mock))
        return (mock, console)
    }

    /// KDGETMODE as the kernel answers it: an int written through the pointer.
    static func answerMode(_ mock: MockSystemCalls, _ mode: Int32) {
        mock.ioctlAnswers["KDGETMODE"] = { $0.storeBytes(of: mode, as: Int32.self) }
    }

    @Test func reassertGraphicsTakesTheConsoleBackFromTextMode() throws {
        let (mock, console) = try Self.console()
        defer { console.restore() }
        Self.answerMode(mock, fbl_KD_TEXT)
        var mark = mock.trace.count
        #expect(console.reassertGraphics())
        #expect(
            mock.calls(since: mark) == ["ioctl KDGETMODE", "ioctl KDSETMODE 1", "write \\e[?25l"])
        // KDGETMODE takes an int (4 bytes), not a long.
        #expect(mock.ioctlArguments["KDGETMODE"]?.count == 4)

        // Already in graphics mode: nothing to do, nothing to redraw.
        Self.answerMode(mock, fbl_KD_GRAPHICS)
        mark = mock.trace.count
        #expect(!console.reassertGraphics())
        #expect(mock.calls(since: mark) == ["ioctl KDGETMODE"])

        // The mode cannot be read: nothing is changed.
        mock.ioctlErrors["KDGETMODE"] = ENOTTY
        mark = mock.trace.count
        #expect(!console.reassertGraphics())
        #expect(mock.calls(since: mark) == ["ioctl KDGETMODE"])
    }

    @Test func leaveAsItIsChangesNoMode() throws {
        let (mock, console) = try Self.console()
        Self.answerMode(mock, fbl_KD_TEXT)
        let mark = mock.trace.count
        console.leaveAsItIs()
        console.leaveAsItIs()
        console.restore()
        #expect(!console.reassertGraphics())
        #expect(mock.calls(since: mark) == ["close 3"])
    }

    @Test func restoreTextPutsAnyConsoleBack() {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/tty0"]
        Console.restoreText(system: mock)
        #expect(mock.trace == ["open /dev/tty0", "ioctl KDSETMODE 0", "write \\e[?25h", "close 3"])
        // Not a VT, or not ours to change: no cursor sequence written to it.
        mock.ioctlErrors["KDSETMODE"] = EPERM
        var mark = mock.trace.count
        Console.restoreText(system: mock)
        #expect(mock.calls(since: mark) == ["open /dev/tty0", "ioctl KDSETMODE 0", "close 4"])
        // No VT at all.
        mock.devices = []
        mark = mock.trace.count
        Console.restoreText(system: mock)
        #expect(mock.calls(since: mark) == ["open /dev/tty0"])
    }

    @Test func consoleModeIsRead() {
        let mock = MockSystemCalls()
        mock.devices = ["/dev/tty0"]
        Self.answerMode(mock, fbl_KD_GRAPHICS)
        #expect(Console.mode(system: mock) == fbl_KD_GRAPHICS)
        Self.answerMode(mock, fbl_KD_TEXT)
        #expect(Console.mode(system: mock) == fbl_KD_TEXT)
        mock.ioctlErrors["KDGETMODE"] = ENOTTY
        #expect(Console.mode(system: mock) == nil)
        #expect(mock.trace.filter { $0.hasPrefix("close") }.count == 3)
    }

    // MARK: master taken behind the display's back

    /// Another program's framebuffer (or none) on a CRTC this display set:
    /// taken. Not before the first frame, not while a mode set is due
    /// (after reactivate), never after close; asked with GetCrtc only.
    @Test func anotherProgramsPictureOnTheCRTCIsNoticed() throws {
        let (kms, display) = try Self.flipping()
        #expect(!display.screenTaken)
        try Self.present(display, frames: 2)
        var mark = kms.system.trace.count
        #expect(!display.screenTaken)
        #expect(kms.system.calls(since: mark) == ["drmModeGetCrtc 40"])
        let crtc = CRTCID(rawValue: 40)!
        kms.crtcStates[crtc]?.framebuffer = FramebufferID(rawValue: 999)
        #expect(display.screenTaken)
        kms.crtcStates[crtc]?.framebuffer = nil
        #expect(display.screenTaken)
        // Taken back: the next frame sets the CRTC; until then nothing is asked.
        display.deactivate()
        try display.reactivate()
        mark = kms.system.trace.count
        #expect(!display.screenTaken)
        #expect(kms.system.calls(since: mark).isEmpty)
        try Self.present(display, frames: 1)
        #expect(!display.screenTaken)
        display.close()
        #expect(!display.screenTaken)
    }

    /// A device whose driver went away answers ENODEV: gone. Other errors
    /// (a busy device) and a closed display are not.
    @Test func aDeviceAnsweringENODEVIsGone() throws {
        let (kms, display) = try Self.flipping()
        try Self.present(display, frames: 1)
        #expect(!display.isGone)
        kms.errors["drmModeGetCrtc"] = EBUSY
        #expect(!display.isGone)
        kms.errors["drmModeGetCrtc"] = ENODEV
        #expect(display.isGone)
        #expect(!display.screenTaken)
        kms.errors["drmModeGetCrtc"] = nil
        display.close()
        kms.errors["drmModeGetCrtc"] = ENODEV
        #expect(!display.isGone)
    }
}
