import FBAnimation
import FBImage
import FBLinux
import FBRaster

/// Everything `fbanim render` needs, checked: building one never fails later.
struct RenderRequest: Sendable {
    /// The loader, or `nil` for the test pattern.
    var loader: LoaderKind?
    var width: Int
    var height: Int
    /// Seconds since the loader appeared, `0...1e9`.
    var time: Double
    var output: String
    var fileFormat: ImageFileFormat
    var pixelFormat: PixelFormat = .xrgb8888
    var style = LoaderStyle()
    /// The message line and its font.
    var text = TextRequest()
    /// The ring's progress (0...1), settled, instead of its clock.
    var progress: Double?

    /// Checks and converts the words of a `render` command line.
    ///
    /// Values are checked in the table's order, the loader first; missing
    /// arguments are reported after bad values.
    /// - Throws: `CLIError.usage` naming the first bad word.
    init(_ parsed: ParsedCommandLine) throws(CLIError) {
        func value<T>(_ parser: OptionParser<T>) throws(CLIError) -> T? {
            try parsed.value(parser, for: .render)
        }
        let isPattern = parsed.arguments.first == "testpattern"
        let loader = isPattern ? nil : try parsed.loader(for: .render)
        let size = try value(Parsers.size)
        let time = try value(Parsers.time)
        let fileFormat = try value(Parsers.output)
        let pixelFormat = try value(Parsers.format)
        let look = try StyleRequest(parsed, for: .render)
        let text = try TextRequest(parsed, for: .render)
        let progress = try value(Parsers.progress)
        try checkRequired(parsed, for: .render)
        guard loader != nil || isPattern, let size, let time, let fileFormat,
            let output = parsed[.output]
        else {
            // checkRequired has thrown for anything missing.
            preconditionFailure("render: a required value slipped through")
        }

        self.loader = loader
        (width, height) = size
        self.time = time
        self.output = output
        self.fileFormat = fileFormat
        if let pixelFormat { self.pixelFormat = pixelFormat }
        style = look.style
        self.text = text
        self.progress = progress.map { Double($0) / 100 }
    }
}

/// Parses `--progress`: a whole number of percent in `Limits.progress`.
func parseProgress(_ word: String) throws(InvalidValue) -> Int {
    guard word.allSatisfy({ $0.isASCII && $0.isNumber }), word.count <= 3, let n = Int(word),
        Limits.progress.contains(n)
    else {
        throw InvalidValue(
            "expected a whole number of percent from \(Limits.progress.lowerBound) to "
                + "\(Limits.progress.upperBound)")
    }
    return n
}

/// `The value 'w' is invalid for '<name>': reason`, as swift-argument-parser words it.
func invalid(_ word: String, _ name: String, _ error: InvalidValue, for command: Command = .render)
    -> CLIError
{
    .usage("The value '\(word)' is invalid for '\(name)': \(error.reason)", command)
}

/// Runs `fbanim render` with the words after `render`; help goes to stdout.
func runRender(_ words: ArraySlice<String>) throws(CLIError) {
    let parsed = try parseCommandLine(words, for: .render)
    if parsed.wantsHelp {
        try writeOutput(helpText(for: .render))
        return
    }
    let request = try RenderRequest(parsed)
    try render(request)
}

/// Draws the frame and writes the file atomically.
func render(_ request: RenderRequest) throws(CLIError) {
    // Fail before drawing: an 8192x8192 frame takes a while for nothing.
    do {
        try checkFileReplaceable(request.output)
    } catch {
        throw .cannotWrite(path: request.output, error)
    }
    let buffer: PixelBuffer
    let turned = request.style.rotation.isQuarterTurn
    if let loader = request.loader {
        let typesetter = try MessageTypesetter(request.text, scale: request.style.scale)
        let message = request.text.message.flatMap {
            typesetter.line($0, pictureWidth: turned ? request.height : request.width)
        }
        buffer = renderFrame(
            loader, width: request.width, height: request.height,
            format: drawnFormat(request.pixelFormat), style: request.style, time: request.time,
            progress: request.progress, message: message)
    } else {
        // The test pattern: full screen, pixel for pixel, on black.
        let text = TestPatternText.rendering(
            width: request.width, height: request.height, format: request.pixelFormat,
            rotation: request.style.rotation)
        let pattern = testPatternMaker(text)(
            turned ? request.height : request.width, turned ? request.width : request.height)
        let renderer = FrameRenderer(
            loader: pattern, width: request.width, height: request.height,
            style: LoaderStyle(rotation: request.style.rotation))
        buffer = renderFrame(
            renderer, format: drawnFormat(request.pixelFormat), time: request.time)
    }
    // The file is encoded a row at a time straight into the temporary
    // file: besides the frame, memory for a row and zlib's state only.
    let rows = RGBRows(buffer.surface, format: request.pixelFormat)
    var writeFailure: SystemError?
    do {
        try writeFileAtomically(to: request.output) { file in
            try request.fileFormat.encode(
                width: request.width, height: request.height,
                rows: { y, out in rows.row(y, into: out) },
                to: { bytes in
                    do throws(SystemError) {
                        try file.write(bytes)
                        return true
                    } catch {
                        writeFailure = error
                        return false
                    }
                })
        }
    } catch let error as SystemError {
        throw .cannotWrite(path: request.output, error)
    } catch let error as ImageError {
        if let writeFailure { throw .cannotWrite(path: request.output, writeFailure) }
        throw .ioError("cannot encode '\(request.output)': \(error)")
    } catch {
        throw .ioError("cannot write '\(request.output)': \(error)")
    }
}

/// The format a frame for `format` is drawn in: a 16-bit frame is drawn at
/// 8 bits a channel and dithered a band at a time as it is written (as the
/// renderer does through its canvas, without a second frame in memory).
private func drawnFormat(_ format: PixelFormat) -> PixelFormat {
    format.bytesPerPixel == 2 ? .xrgb8888 : format
}

/// The rows of a drawn frame as packed RGB, in `format`'s colours: a
/// 16-bit format's rows are dithered from the 8-bit frame four at a time
/// (the dither's cells repeat every four rows, so a band from a row that
/// is a multiple of 4 gives the bytes of the whole frame's conversion).
private final class RGBRows {
    let frame: Surface
    let format: PixelFormat
    private let rasterizer = Rasterizer()
    private var band: PixelBuffer?
    private var bandStart = -1

    init(_ frame: Surface, format: PixelFormat) {
        self.frame = frame
        self.format = format
    }

    func row(_ y: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        guard format != frame.format else { return frame.rgbRow(y, into: out) }
        let start = y & ~3
        if start != bandStart {
            let rows = min(4, frame.height - start)
            let source = Surface(
                base: frame.base + start * frame.stride, width: frame.width, height: rows,
                stride: frame.stride, format: frame.format)
            if band?.surface.height != rows {
                band = PixelBuffer(width: frame.width, height: rows, format: format)
            }
            guard let band else { preconditionFailure("no band") }
            rasterizer.convert(source, into: band.surface, in: band.surface.bounds)
            bandStart = start
        }
        band?.surface.rgbRow(y - start, into: out)
    }
}
