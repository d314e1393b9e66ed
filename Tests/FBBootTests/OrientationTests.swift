import Testing

@testable import FBBoot

/// The panel orientation and `video=...,rotate=N`, as the kernel reads them,
/// turned into fbanim's clockwise picture rotation.
@Suite struct OrientationTests {
    /// drm_client_rotation(): Left Side Up is DRM_MODE_ROTATE_90, which is
    /// counter-clockwise (fbcon's FB_ROTATE_CCW), so fbanim turns 270 clockwise.
    @Test(arguments: [
        (PanelOrientation.normal, 0), (.upsideDown, 180), (.leftSideUp, 270), (.rightSideUp, 90),
    ])
    func orientationAloneTurnsThePictureBack(_ orientation: PanelOrientation, _ clockwise: Int) {
        #expect(pictureRotation(orientation: orientation, commandLineDegrees: nil) == clockwise)
    }

    @Test func propertyValuesAndNamesAreTheKernels() {
        #expect(PanelOrientation(rawValue: 2) == .leftSideUp)
        #expect(PanelOrientation(rawValue: 3)?.name == "Right Side Up")
        #expect(PanelOrientation(rawValue: 1)?.name == "Upside Down")
        #expect(PanelOrientation(rawValue: 4) == nil)
    }

    /// `rotate=90` is DRM_MODE_ROTATE_90 too: the same as Left Side Up; the
    /// kernel adds the command line's to the panel's.
    @Test(
        arguments: [
            (nil, 90, 270), (nil, 270, 90), (nil, 180, 180), (nil, 0, 0),
            (PanelOrientation.leftSideUp, 90, 180), (.rightSideUp, 90, 0), (.upsideDown, 270, 270),
            (.leftSideUp, 0, 270),
        ] as [(PanelOrientation?, Int, Int)])
    func commandLineRotationAddsToThePanels(
        _ orientation: PanelOrientation?, _ rotate: Int, _ clockwise: Int
    ) {
        #expect(pictureRotation(orientation: orientation, commandLineDegrees: rotate) == clockwise)
    }

    @Test func videoOptionsOfAConnector() {
        let line = KernelCommandLine(
            "quiet video=HDMI-A-1:1920x1080M@60 splash video=DSI-1:720x1280@60,rotate=270")
        #expect(line.videoOptions(for: "DSI-1") == "720x1280@60,rotate=270")
        #expect(line.videoRotation(for: "DSI-1") == 270)
        #expect(line.videoOptions(for: "HDMI-A-1") == "1920x1080M@60")
        #expect(line.videoRotation(for: "HDMI-A-1") == nil)
        #expect(line.videoOptions(for: "DSI") == nil, "a name matches whole, not as a prefix")
        #expect(line.videoRotation(for: "SPI-1") == nil)
    }

    @Test func optionsAloneWithoutAMode() {
        let line = KernelCommandLine("video=Virtual-1:panel_orientation=left_side_up,rotate=90")
        #expect(line.videoRotation(for: "Virtual-1") == 90)
        #expect(KernelCommandLine("video=DSI-1:rotate=180").videoRotation(for: "DSI-1") == 180)
    }

    /// drivers/video/cmdline.c: the last named one wins; without one, the
    /// unnamed `video=` applies to every output.
    @Test func lastNamedWinsElseTheGlobalOne() {
        let line = KernelCommandLine(
            "video=DSI-1:rotate=90 video=800x480,rotate=180 video=DSI-1:rotate=270")
        #expect(line.videoRotation(for: "DSI-1") == 270)
        #expect(line.videoRotation(for: "HDMI-A-1") == 180)
        #expect(KernelCommandLine("video=efifb:off").videoRotation(for: "DSI-1") == nil)
    }

    /// A bad value makes the kernel refuse the whole option; several are or-ed
    /// (the largest counts, as `ilog2` of the bits).
    @Test(
        arguments: [
            ("video=DSI-1:rotate=45", nil), ("video=DSI-1:rotate=", nil),
            ("video=DSI-1:rotate=-90", nil),
            ("video=DSI-1:rotate=90x", nil), ("video=DSI-1:rotate=90,rotate=180", 180),
            ("video=DSI-1:rotate=270,rotate=90", 270), ("video=DSI-1:reflect_x,rotate=90", 90),
            ("video=DSI-1:", nil), ("video=DSI-1", nil), ("video", nil),
        ] as [(String, Int?)])
    func badOrRepeatedRotations(_ text: String, _ degrees: Int?) {
        #expect(KernelCommandLine(text).videoRotation(for: "DSI-1") == degrees, "\(text)")
    }
}
