import CDRM
import CFBLinux
import FBBoot
import FBDisplay
import FBRaster
import Glibc
import Testing

@testable import FBLinux

/// A DRM display's panel rotation (the connector's "panel orientation" and
/// `video=CONNECTOR:...,rotate=N`) and a board's pixel format, on the mocked kernel.
@Suite struct PanelRotationTests {
    static let dsi = UInt32(DRM_MODE_CONNECTOR_DSI)
    static let hdmi = UInt32(DRM_MODE_CONNECTOR_HDMIA)

    /// A card whose first output is a 720x1280 DSI panel mounted `orientation`.
    func panel(_ orientation: PanelOrientation?) -> MockModeSetting {
        let kms = MockModeSetting.card([
            ("DSI-1", Self.dsi, 720, 1280), ("HDMI-A-1", Self.hdmi, 64, 32),
        ])
        kms.connectors[0].panelOrientation = orientation
        kms.errors["DirtyFB"] = ENOSYS
        return kms
    }

    func rotation(_ orientation: PanelOrientation?, commandLine: String) throws -> Int {
        let kms = panel(orientation)
        let display = try DRMDisplay(
            path: "/dev/dri/card0", kernelCommandLine: commandLine, system: kms.system, kms: kms)
        defer { display.close() }
        #expect(display.description.width == 720, "the panel is the first output")
        return display.panelRotation
    }

    @Test(
        arguments: [
            (nil, 0), (PanelOrientation.normal, 0), (.leftSideUp, 270), (.rightSideUp, 90),
            (.upsideDown, 180),
        ] as [(PanelOrientation?, Int)])
    func fromTheProperty(_ orientation: PanelOrientation?, _ clockwise: Int) throws {
        #expect(try rotation(orientation, commandLine: "quiet splash") == clockwise)
    }

    /// Raspberry Pi's Touch Display 2 documentation: `video=DSI-1:720x1280@60,rotate=90`
    /// for a landscape console; the kernel's DRM_MODE_ROTATE_90 is fbanim's 270.
    @Test func fromTheCommandLineAddedToTheProperty() throws {
        #expect(try rotation(nil, commandLine: "video=DSI-1:720x1280@60,rotate=90") == 270)
        #expect(try rotation(nil, commandLine: "video=DSI-1:720x1280@60,rotate=270") == 90)
        #expect(try rotation(.leftSideUp, commandLine: "video=DSI-1:rotate=90") == 180)
        // Another output's option does not turn this one.
        #expect(try rotation(nil, commandLine: "video=HDMI-A-1:rotate=90") == 0)
        #expect(try rotation(.rightSideUp, commandLine: "video=DSI-1:rotate=45") == 90)
    }

    /// The rotation is the first output's: with only HDMI named, HDMI's.
    @Test func onlyTheNamedConnector() throws {
        let kms = panel(.leftSideUp)
        let display = try DRMDisplay(
            path: "/dev/dri/card0", connector: "HDMI-A-1", kernelCommandLine: "",
            system: kms.system,
            kms: kms)
        defer { display.close() }
        #expect(display.panelRotation == 0)
        #expect(display.description.width == 64)
    }

    /// fbdev does not know how its panel is mounted (fbtft turns in the driver).
    @Test func otherDisplaysKnowNone() throws {
        let mock = FakeFramebuffer.mock(
            FramebufferDisplayTests.rgb565, FramebufferDisplayTests.rgb565Fixed)
        let display: Display = try FramebufferDisplay(path: "/dev/fb0", system: mock)
        defer { display.close() }
        #expect(display.panelRotation == 0)
    }

    /// The property is read through the probe the devices listing uses too.
    @Test func probeReportsTheOrientation() throws {
        let kms = panel(.rightSideUp)
        let report = try DeviceDiscovery.probeCard("/dev/dri/card0", system: kms.system, kms: kms)
            .get()
        #expect(report.connectors.map(\.panelOrientation) == [.rightSideUp, nil])
        #expect(report.connectors.map(\.typeName) == ["DSI", "HDMI-A"])
    }

    /// A board's `format`: used when the primary planes list it (or list
    /// nothing); otherwise fbanim's own choice.
    @Test func aWantedFormatWhereThePlanesTakeIt() throws {
        func format(_ wanted: PixelFormat?, planes: [UInt32]) throws -> PixelFormat {
            let kms = MockModeSetting.card([("SPI-1", UInt32(DRM_MODE_CONNECTOR_SPI), 240, 240)])
            kms.planeFormats = planes
            let display = try DRMDisplay(
                path: "/dev/dri/card0", format: wanted, kernelCommandLine: "", system: kms.system,
                kms: kms)
            defer { display.close() }
            #expect(
                kms.system.trace.contains {
                    $0.hasPrefix(
                        "CREATE_DUMB 240x240x\(display.description.format.bytesPerPixel * 8)")
                })
            return display.description.format
        }
        let both = [fbl_DRM_FORMAT_RGB565, fbl_DRM_FORMAT_XRGB8888]
        #expect(try format(nil, planes: both) == .xrgb8888)
        #expect(try format(.rgb565, planes: both) == .rgb565)
        #expect(try format(.rgb565, planes: []) == .rgb565)
        #expect(try format(.xbgr8888, planes: both) == .xrgb8888)
    }
}
