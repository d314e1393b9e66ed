import CDRM
import CFBLinux
import FBBoot
import Testing

@testable import FBAnimCLI
@testable import FBLinux

/// `fbanim devices` as a user picking a profile reads it: the stable names,
/// connector types and status, modes, formats, the panel orientation and
/// what fbanim makes of it; each framebuffer's fb:ID and bitfields.
@Suite struct DevicesListingTests {
    /// A Pi 4 with the 7" DSI panel mounted upside down and a monitor on HDMI.
    static let pi: DRMCardReport = {
        func connector(
            _ id: UInt32, _ name: String, _ type: Int32, _ status: ConnectionStatus,
            _ modes: [DisplayMode], _ orientation: PanelOrientation? = nil
        ) -> ConnectorInfo {
            ConnectorInfo(
                id: ConnectorID(rawValue: id)!, name: name, type: UInt32(type), status: status,
                modes: modes, encoders: [], currentEncoder: nil, panelOrientation: orientation)
        }
        return DRMCardReport(
            path: "/dev/dri/card1", driver: "vc4", driverDescription: "Broadcom VC4 graphics",
            connectors: [
                connector(
                    31, "DSI-1", DRM_MODE_CONNECTOR_DSI, .connected,
                    [.testMode(width: 800, height: 480)], .upsideDown),
                connector(
                    32, "HDMI-A-1", DRM_MODE_CONNECTOR_HDMIA, .connected,
                    [
                        .testMode(width: 1920, height: 1080),
                        .testMode(width: 1280, height: 720, preferred: false),
                    ]),
                connector(33, "HDMI-A-2", DRM_MODE_CONNECTOR_HDMIA, .disconnected, []),
            ],
            planeFormats: ["XR24", "RG16"], preferredDepth: 24, prefersShadow: false,
            format: .xrgb8888, links: ["/dev/dri/by-path/platform-gpu-card"])
    }()

    static let pitft = FramebufferReport(
        path: "/dev/fb1",
        geometry: .success(
            try! FramebufferGeometry(
                path: "/dev/fb1",
                variable: {
                    var v = fb_var_screeninfo()
                    (v.xres, v.yres, v.xres_virtual, v.yres_virtual) = (320, 240, 320, 240)
                    v.bits_per_pixel = 16
                    v.red = fb_bitfield(offset: 11, length: 5, msb_right: 0)
                    v.green = fb_bitfield(offset: 5, length: 6, msb_right: 0)
                    v.blue = fb_bitfield(offset: 0, length: 5, msb_right: 0)
                    v.nonstd = 1
                    return v
                }(),
                fixed: {
                    var f = fb_fix_screeninfo()
                    withUnsafeMutableBytes(of: &f.id) { raw in
                        for (i, byte) in "fb_ili9340".utf8.enumerated() { raw[i] = byte }
                    }
                    f.type = 0  // FB_TYPE_PACKED_PIXELS
                    f.visual = 2  // FB_VISUAL_TRUECOLOR
                    f.line_length = 640
                    f.smem_len = 153_600
                    return f
                }())))

    func listing(_ commandLine: String = "") -> [String] {
        devicesListing(
            cards: [.success(Self.pi)], framebuffers: [Self.pitft], isTerminal: false,
            commandLine: KernelCommandLine(commandLine)
        ).split(separator: "\n").map(String.init)
    }

    /// A /dev/dri this user may not list is said as a permission problem
    /// with the hint, never as "no /dev/dri/card*", and nothing is chosen.
    @Test func anUnlistableDRMFolderIsAPermissionProblem() {
        let problem = "cannot list /dev/dri (Permission denied); \(permissionHint)"
        let lines = devicesListing(
            cards: [], framebuffers: [Self.pitft], isTerminal: true, unlistableDRM: problem
        ).split(separator: "\n").map(String.init)
        #expect(lines.contains("  " + problem), "\(lines)")
        #expect(!lines.contains { $0.contains("no /dev/dri/card") }, "\(lines)")
        #expect(
            lines.last
                == "Without --device fbanim would use: nothing: permission denied on /dev/dri (see above)",
            "\(lines)")
    }

    @Test func stableNamesTypesModesAndOrientation() {
        let lines = listing()
        #expect(lines.contains("  /dev/dri/card1: vc4 (Broadcom VC4 graphics)"), "\(lines)")
        #expect(
            lines.contains("    names: drm:vc4, /dev/dri/by-path/platform-gpu-card"), "\(lines)")
        #expect(
            lines.contains(
                "    DSI-1 (DSI): connected, drm:vc4:DSI-1, 1 mode: 800x480@60 (preferred)"),
            "\(lines)")
        #expect(
            lines.contains(
                "      panel orientation Upside Down: fbanim turns its picture 180 clockwise"),
            "\(lines)")
        #expect(
            lines.contains(
                "    HDMI-A-1 (HDMI-A): connected, drm:vc4:HDMI-A-1, 2 modes: "
                    + "1920x1080@60 (preferred), 1280x720@60"), "\(lines)")
        #expect(lines.contains("    HDMI-A-2 (HDMI-A): disconnected"), "\(lines)")
        #expect(lines.contains("    primary plane formats: XR24 RG16"), "\(lines)")
        #expect(
            lines.contains(
                "  /dev/fb1: fb:fb_ili9340, 320x240 rgb565 (16 bpp, r 11/5 g 5/6 b 0/5), "
                    + "stride 640 bytes, 1 page"), "\(lines)")
    }

    /// `video=CONNECTOR:...,rotate=N` shows under its connector, added to the orientation.
    @Test func commandLineRotationIsShownWithWhatFbanimDoes() {
        let lines = listing("quiet video=HDMI-A-1:1920x1080@60,rotate=90 video=DSI-1:rotate=180")
        #expect(
            lines.contains(
                "      panel orientation Upside Down, video=DSI-1:...,rotate=180: fbanim turns its "
                    + "picture 0 clockwise"), "\(lines)")
        #expect(
            lines.contains(
                "      video=HDMI-A-1:...,rotate=90: fbanim turns its picture 270 clockwise"),
            "\(lines)")
    }
}
