import FBAnimation
import FBDisplay
import FBRaster
import FBText

/// The help paragraph of `fbanim testpattern`.
let testPatternDiscussion = """
    Shows the bring-up picture on a display, played like a loader until SIGTERM or SIGINT \
    (or --duration, --frames): an arrow and TOP where the top of the picture is, the \
    display's name, mode, pixel format and frame rate, four bars red, green, blue and white \
    from the left, and a yellow bar crossing the screen once a second. A picture on its side \
    or upside down shows a wrong rotation; bars in another order (B G R W) show red and blue \
    swapped (an RGB/BGR mix-up); a broken yellow bar shows tearing. The picture turns with \
    --rotate, a board's rotate and the panel orientation the kernel reports, as a loader \
    does. For example:

      fbanim testpattern --board pi-spi-ili9341
      fbanim testpattern --device drm:vc4:DSI-1 --rotate 90 --duration 20

    fbanim render testpattern --size WxH --output FILE draws one frame of it.
    """

/// `fbanim testpattern`: plays the test pattern.
func runTestPattern(_ words: ArraySlice<String>) throws(CLIError) {
    let parsed = try parseCommandLine(words, for: .testpattern)
    if parsed.wantsHelp {
        try writeOutput(helpText(for: .testpattern))
        return
    }
    var request = try PlayRequest(parsed, for: .testpattern)
    // Full screen, pixel for pixel, on black: a board's look does not apply.
    request.style = LoaderStyle(rotation: request.style.rotation)
    request.text = TextRequest()
    try play(request, testPattern: true)
}

/// The lines of text under the test pattern's arrow.
struct TestPatternText {
    var lines: [String]

    /// For a display being played on: its name, then its mode, format and
    /// the frame rate, then how far the picture is turned (when it is).
    static func playing(_ display: DisplayDescription, fps: Int, style: LoaderStyle)
        -> TestPatternText
    {
        var mode = "\(display.width)x\(display.height)"
        if let hz = display.refreshHz { mode += "@\(hz)" }
        return TestPatternText(
            lines: [display.name, "\(mode) \(display.format.name) \(fps) fps"]
                + turn(style.rotation))
    }

    /// For `fbanim render testpattern`.
    static func rendering(width: Int, height: Int, format: PixelFormat, rotation: Rotation)
        -> TestPatternText
    {
        TestPatternText(
            lines: ["fbanim render", "\(width)x\(height) \(format.name)"] + turn(rotation))
    }

    private static func turn(_ rotation: Rotation) -> [String] {
        rotation == .degrees0 ? [] : ["turned \(rotation.rawValue) clockwise"]
    }

    /// The pattern for a picture of `width` x `height` (before rotation),
    /// its text laid out in `font` at the pattern's sizes.
    func pattern(width: Int, height: Int, font: Font) -> TestPattern {
        let sizes = TestPattern.textSizes(width: width, height: height)
        func label(_ text: String, _ size: Double, _ maxWidth: Double) -> TestPattern.Label? {
            let line = font.layOut(text, pixelSize: fixed(size), maxWidth: fixed(maxWidth))
            guard !line.text.isEmpty else { return nil }
            return TestPattern.Label(
                path: line.path, width: Double(line.advance.raw) / 65536,
                height: Double(line.height.raw) / 65536)
        }
        let wide = Double(width)
        return TestPattern(
            width: width, height: height, top: label("TOP", sizes.top, wide),
            barLabels: ["R", "G", "B", "W"].compactMap { label($0, sizes.label, wide / 4) },
            info: lines.compactMap {
                label($0, sizes.info, TestPattern.infoWidth(pictureWidth: width))
            })
    }

    private func fixed(_ pixels: Double) -> Fixed { Fixed(raw: Int64((pixels * 65536).rounded())) }
}

/// What `LoaderPlayer.makePicture` calls: the pattern for each screen size,
/// in the built-in font (a test pattern must show from an initramfs).
func testPatternMaker(_ text: TestPatternText) -> (Int, Int) -> any Loader {
    let font = Font.builtIn()
    return { width, height in text.pattern(width: width, height: height, font: font) }
}
