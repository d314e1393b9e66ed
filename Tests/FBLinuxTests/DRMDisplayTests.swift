import CDRM
import FBDisplay
import FBRaster
import Glibc
import Testing

@testable import FBLinux

/// The DRM backend against a mocked libdrm: the order of its calls from
/// open to close, its choices, and how it tears down what it half built.
@Suite struct DRMDisplayTests {
    static let virtual = UInt32(DRM_MODE_CONNECTOR_VIRTUAL)
    static let hdmi = UInt32(DRM_MODE_CONNECTOR_HDMIA)
    static let dsi = UInt32(DRM_MODE_CONNECTOR_DSI)

    /// Scanout from memory (DirtyFB: ENOSYS): two buffers, SetCrtc with the first frame (never
    /// a black one), then page flips and their events.
    @Test func pageFlipLifecycleFromOpenToClose() throws {
        let kms = MockModeSetting.card([("Virtual-1", Self.virtual, 64, 32)])
        kms.errors["DirtyFB"] = ENOSYS
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        #expect(display.presentation == .pageFlip)
        #expect(display.description.name == "/dev/dri/card0 (Virtual-1)")
        #expect(display.description.format == .xrgb8888 && display.description.refreshHz == 60)
        #expect(
            kms.system.trace == [
                "open /dev/dri/card0", "drmGetVersion", "drmModeGetResources", "drmSetMaster",
                "drmModeGetCrtc 40",
                "CREATE_DUMB 64x32x32", "AddFB2 102 handle 101 XR24", "MAP_DUMB 101",
                "mmap 8192 at 413696", "DirtyFB 102 []",
                "CREATE_DUMB 64x32x32", "AddFB2 104 handle 103 XR24", "MAP_DUMB 103",
                "mmap 8192 at 421888",
            ])
        // One output, no shadow preferred: fbanim draws straight into the dumb buffer.
        let first = try display.backBuffer()
        #expect(first.age == 0 && first.surface.stride == 256)
        var mark = kms.system.trace.count
        try display.present(damage: [first.surface.bounds])
        #expect(kms.system.calls(since: mark) == ["SetCrtc 40 fb 104 64x32"])
        mark = kms.system.trace.count
        #expect(try display.backBuffer().age == 0)  // buffer 102 was never shown
        #expect(kms.system.calls(since: mark).isEmpty)  // a mode set queues no event
        try display.present(damage: [first.surface.bounds])
        #expect(kms.system.calls(since: mark) == ["PageFlip 40 fb 102"])
        mark = kms.system.trace.count
        #expect(try display.backBuffer().age == 2)
        #expect(kms.system.calls(since: mark) == ["poll", "drmHandleEvent"])

        mark = kms.system.trace.count
        display.close()
        display.close()
        #expect(
            kms.system.calls(since: mark) == [
                "SetCrtc 40 fb none off",  // it was off before fbanim
                "RmFB 104", "munmap 8192", "DESTROY_DUMB 103",
                "RmFB 102", "munmap 8192", "DESTROY_DUMB 101",
                "drmDropMaster", "close 3",
            ])
    }

    /// Drivers that copy (DirtyFB works: virtio-gpu, SPI panels): one buffer, damage reported as clips.
    @Test func damageReportingDriversGetDirtyFBWithTheDamage() throws {
        let kms = MockModeSetting.card([("SPI-1", UInt32(DRM_MODE_CONNECTOR_SPI), 320, 240)])
        kms.capabilities[3] = 16  // DRM_CAP_DUMB_PREFERRED_DEPTH
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        defer { display.close() }
        #expect(display.presentation == .damage)
        #expect(display.description.format == .rgb565)
        #expect(
            kms.system.trace.filter { $0.hasPrefix("CREATE_DUMB") } == ["CREATE_DUMB 320x240x16"])
        let back = try display.backBuffer()
        #expect(back.age == 0)
        try display.present(damage: [back.surface.bounds])
        #expect(try display.backBuffer().age == 1)
        let mark = kms.system.trace.count
        try display.present(damage: [
            IntRect(x: 10, y: 20, width: 5, height: 3), IntRect(x: 300, y: 0, width: 50, height: 1),
        ])
        #expect(kms.system.calls(since: mark) == ["DirtyFB 102 [10,20 5x3; 300,0 20x1]"])
    }

    /// Scanout from memory without a vertical blank (bochs: DirtyFB ENOSYS, no vblank): one
    /// buffer on screen, the damage copied into it from the shadow, no flip, no event, no
    /// DirtyFB; the pixels on screen are the shadow's.
    @Test func noVerticalBlankCopiesIntoTheBufferOnScreen() throws {
        let kms = MockModeSetting.card([("Virtual-1", Self.virtual, 64, 32)])
        kms.errors["DirtyFB"] = ENOSYS
        kms.verticalBlank = false
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        defer { display.close() }
        #expect(display.presentation == .inPlace)
        #expect(kms.system.trace.filter { $0.hasPrefix("CREATE_DUMB") }.count == 1)
        var back = try display.backBuffer()
        #expect(back.age == 0)
        let raster = Rasterizer()
        raster.clear(back.surface, to: Color(rgb: 0x0011_2233))
        var mark = kms.system.trace.count
        try display.present(damage: [back.surface.bounds])
        #expect(kms.system.calls(since: mark) == ["SetCrtc 40 fb 102 64x32"])
        back = try display.backBuffer()
        #expect(back.age == 1)
        let changed = IntRect(x: 3, y: 4, width: 5, height: 6)
        raster.clear(back.surface, to: Color(rgb: 0x00AA_BBCC), in: changed)
        mark = kms.system.trace.count
        try display.present(damage: [changed])
        _ = try display.backBuffer()
        #expect(kms.system.calls(since: mark).isEmpty)
        let screen = display.card.outputs[0].buffers[0].surface
        #expect(screen.pixel(x: 3, y: 4) == 0x00AA_BBCC && screen.pixel(x: 7, y: 9) == 0x00AA_BBCC)
        #expect(screen.pixel(x: 8, y: 4) == 0x0011_2233 && screen.pixel(x: 0, y: 0) == 0x0011_2233)
    }

    /// A device that goes away fails the flip with ENODEV (exit 74); a driver without page flips gets SetCrtc.
    @Test func flipFailures() throws {
        let kms = MockModeSetting.card([("Virtual-1", Self.virtual, 64, 32)])
        kms.errors["DirtyFB"] = ENOSYS
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        defer { display.close() }
        var back = try display.backBuffer()
        try display.present(damage: [back.surface.bounds])  // the mode set
        back = try display.backBuffer()
        kms.errors["PageFlip"] = EINVAL
        let mark = kms.system.trace.count
        try display.present(damage: [back.surface.bounds])
        #expect(kms.system.calls(since: mark) == ["PageFlip 40 fb 102", "SetCrtc 40 fb 102 64x32"])
        kms.errors["SetCrtc"] = ENODEV
        _ = try display.backBuffer()
        #expect(throws: SystemError(errno: ENODEV, call: "SetCrtc")) {
            try display.present(damage: [back.surface.bounds])
        }
    }

    @Test func anotherMasterIsAClearErrorNotAHang() {
        let kms = MockModeSetting.card([("Virtual-1", Self.virtual, 64, 32)])
        kms.errors["drmSetMaster"] = EBUSY
        let error = #expect(throws: DeviceError.self) {
            try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        }
        #expect(error?.kind == .busy)
        #expect(
            error?.description.contains(
                "another program (a display server?) is using /dev/dri/card0") == true)
        #expect(
            !kms.system.trace.contains { $0.hasPrefix("CREATE_DUMB") || $0.hasPrefix("SetCrtc") })
        #expect(kms.system.trace.last == "close 3")
    }

    @Test func noConnectedOutputAndNotADRMDevice() {
        let kms = MockModeSetting.card([("HDMI-A-1", Self.hdmi, 64, 32)])
        kms.connectors[0].status = .disconnected
        let error = #expect(throws: DeviceError.self) {
            try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        }
        #expect(error?.kind == .unusable && error?.reason.contains("no connected output") == true)
        #expect(!kms.system.trace.contains("drmSetMaster"))

        kms.errors["drmGetVersion"] = ENOTTY
        let notDRM = #expect(throws: DeviceError.self) {
            try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        }
        #expect(notDRM?.description == "/dev/dri/card0: not a DRM device")
    }

    /// The second output's buffer cannot be made: the first output's is released, in reverse, and no CRTC was touched.
    @Test func aHalfBuiltDeviceTearsDownCleanly() {
        let kms = MockModeSetting.card([
            ("DSI-1", Self.dsi, 64, 32), ("HDMI-A-1", Self.hdmi, 128, 64),
        ])
        kms.failCreateDumb = 2
        let error = #expect(throws: DeviceError.self) {
            try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        }
        #expect(error?.kind == .unusable)
        let start = kms.system.trace.firstIndex(of: "CREATE_DUMB 128x64x32")!
        #expect(
            Array(kms.system.trace[start...]) == [
                "CREATE_DUMB 128x64x32",
                "RmFB 102", "munmap 8192", "DESTROY_DUMB 101",
                "drmDropMaster", "close 3",
            ])
        #expect(kms.system.mappings.isEmpty)
    }

    /// Built-in panels first, each output its own CRTC and mode; the picture is the first output's size.
    @Test func everyConnectedOutputGetsItsOwnCRTC() throws {
        let kms = MockModeSetting.card([
            ("HDMI-A-1", Self.hdmi, 128, 64), ("DSI-1", Self.dsi, 64, 32),
        ])
        kms.errors["DirtyFB"] = ENOSYS
        let display = try DRMDisplay(path: "/dev/dri/card0", system: kms.system, kms: kms)
        defer { display.close() }
        #expect(display.outputSummaries == ["DSI-1 64x32@60", "HDMI-A-1 128x64@60"])
        #expect(display.description.width == 64 && display.description.height == 32)
        #expect(!kms.system.trace.contains { $0.hasPrefix("SetCrtc") })
        // Two outputs: drawn once into a shadow, copied to both; the first
        // frame sets both CRTCs, the next ones flip.
        let back = try display.backBuffer()
        #expect(back.age == 0)
        var mark = kms.system.trace.count
        try display.present(damage: [back.surface.bounds])
        #expect(
            kms.system.calls(since: mark) == [
                "SetCrtc 40 fb 106 64x32", "SetCrtc 41 fb 108 128x64",
            ])
        #expect(try display.backBuffer().age == 1)
        mark = kms.system.trace.count
        try display.present(damage: [back.surface.bounds])
        #expect(kms.system.calls(since: mark) == ["PageFlip 40 fb 102", "PageFlip 41 fb 104"])
    }

    @Test func crtcAssignmentNeverSharesACRTC() {
        let crtcs = [CRTCID(rawValue: 7)!, CRTCID(rawValue: 8)!]
        let e1 = EncoderInfo(
            id: EncoderID(rawValue: 1)!, crtc: CRTCID(rawValue: 7), possibleCRTCs: 0b11)
        let e2 = EncoderInfo(id: EncoderID(rawValue: 2)!, crtc: nil, possibleCRTCs: 0b01)
        let e3 = EncoderInfo(id: EncoderID(rawValue: 3)!, crtc: nil, possibleCRTCs: 0b11)
        func connector(_ id: UInt32, _ encoders: [EncoderInfo], current: EncoderID? = nil)
            -> ConnectorInfo
        {
            ConnectorInfo(
                id: ConnectorID(rawValue: id)!, name: "HDMI-A-\(id)", type: Self.hdmi,
                status: .connected,
                modes: [.testMode(width: 10, height: 10)], encoders: encoders.map(\.id),
                currentEncoder: current)
        }
        let table = Dictionary(uniqueKeysWithValues: [e1, e2, e3].map { ($0.id, $0) })
        // The first keeps the CRTC it is on; the second can only use CRTC 7 (taken); the third gets 8.
        let outputs = DRMOutput.assign(
            [connector(1, [e1], current: e1.id), connector(2, [e2]), connector(3, [e3])],
            encoders: table, crtcs: crtcs)
        #expect(outputs.map(\.connector.id.rawValue) == [1, 3])
        #expect(outputs.map(\.crtc.rawValue) == [7, 8])
        #expect(outputs.map(\.crtcIndex) == [0, 1])
    }

    @Test func formatChoice() {
        let xr24 = PixelFormat.xrgb8888.fourcc, rg16 = PixelFormat.rgb565.fourcc,
            xb24 = PixelFormat.xbgr8888.fourcc
        #expect(DRMOutput.chooseFormat(preferredDepth: 24, planeFormats: []) == .xrgb8888)
        #expect(DRMOutput.chooseFormat(preferredDepth: 16, planeFormats: [xr24, rg16]) == .rgb565)
        #expect(DRMOutput.chooseFormat(preferredDepth: 16, planeFormats: [xr24]) == .xrgb8888)
        #expect(DRMOutput.chooseFormat(preferredDepth: nil, planeFormats: [xb24]) == .xbgr8888)
        #expect(DRMDisplay.commonFormats([[xr24, rg16], [], [rg16, xb24]]) == [rg16])
    }

    /// A larger second screen shows the picture centred, its margins in the picture's corner colour.
    @Test func copiesToALargerScreenAreCentred() {
        let small = PixelBuffer(width: 4, height: 2, format: .xrgb8888)
        let large = PixelBuffer(width: 8, height: 6, format: .xrgb8888)
        let s = small.surface.base.assumingMemoryBound(to: UInt32.self)
        for i in 0..<8 { s[i] = 0x0010_2040 }
        s[5] = 0x00FF_0000
        let (dx, dy) = DamageCopy.centring((4, 2), on: (8, 6))
        #expect(dx == 2 && dy == 2)
        DamageCopy.fill(large.surface, withPixelOf: small.surface, x: 0, y: 0)
        let copied = DamageCopy.copy(
            [small.surface.bounds], from: small.surface, to: large.surface, dx: dx, dy: dy)
        #expect(copied == 8)
        let l = large.surface.base.assumingMemoryBound(to: UInt32.self)
        #expect(l[3 * 8 + 3] == 0x00FF_0000)
        #expect((0..<48).filter { l[$0] != 0x0010_2040 } == [3 * 8 + 3])
    }
}
