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
        let scale = try value(Parsers.scale)
        let color = try value(Parsers.color)
        let background = try value(Parsers.background)
        let rotation = try value(Parsers.rotate)
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
        if let scale { style.scale = scale }
        style.color = color
        if let background { style.background = background }
        if let rotation { style.rotation = rotation }
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
            format: request.pixelFormat, style: request.style, time: request.time,
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
        buffer = renderFrame(renderer, format: request.pixelFormat, time: request.time)
    }
    let file: [UInt8]
    do {
        file = try request.fileFormat.encode(
            rgb: buffer.surface.rgbBytes(), width: request.width, height: request.height)
    } catch {
        throw .ioError("cannot encode '\(request.output)': \(error)")
    }
    do {
        try writeFileAtomically(file, to: request.output)
    } catch {
        throw .cannotWrite(path: request.output, error)
    }
}
