import FBAnimation
import FBImage
import FBRaster

/// Why a word is not a valid value; the caller names the option.
struct InvalidValue: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Parses `WxH`: two whole numbers of pixels, each in `Limits.frameSide`.
func parseSize(_ word: String) throws(InvalidValue) -> (width: Int, height: Int) {
    let parts = word.split(
        maxSplits: 2, omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "X" })
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isASCIIDigit) })
    else { throw InvalidValue("expected width x height in pixels, as in 240x240") }
    // Digits only, so nil can only mean a number too big for Int.
    let sides = parts.map { Int($0) ?? Int.max }
    guard sides.allSatisfy({ Limits.frameSide.contains($0) }) else {
        throw InvalidValue(
            "width and height must each be from \(Limits.frameSide.lowerBound) to "
                + "\(Limits.frameSide.upperBound) pixels")
    }
    return (sides[0], sides[1])
}

/// Parses `--time`: seconds, from 0 to `Limits.seconds`.
func parseTime(_ word: String) throws(InvalidValue) -> Double {
    guard let seconds = parseDecimal(word) else {
        throw InvalidValue("expected a number of seconds, as in 1.25")
    }
    guard seconds >= 0 else { throw InvalidValue("time cannot be negative") }
    guard seconds <= Limits.seconds else {
        throw InvalidValue("time must be at most \(shownLimit(Limits.seconds)) seconds")
    }
    // -0 becomes 0.
    return seconds + 0
}

/// Parses `--scale`: greater than 0, at most `Limits.scale`.
func parseScale(_ word: String) throws(InvalidValue) -> Double {
    guard let scale = parseDecimal(word) else {
        throw InvalidValue("expected a number, as in 1.5")
    }
    guard scale > 0, scale <= Limits.scale else {
        throw InvalidValue("scale must be greater than 0 and at most \(shownLimit(Limits.scale))")
    }
    return scale
}

/// Parses `RRGGBB`: exactly six hex digits, an optional leading `#`.
func parseColor(_ word: String) throws(InvalidValue) -> Color {
    guard let color = Color(hex: word) else {
        throw InvalidValue("expected six hex digits RRGGBB, as in 00A0FF")
    }
    return color
}

/// Parses `--rotate`: 0, 90, 180 or 270 degrees.
func parseRotation(_ word: String) throws(InvalidValue) -> Rotation {
    guard word.allSatisfy(isASCIIDigit), let degrees = Int(word),
        let rotation = Rotation(rawValue: degrees)
    else { throw InvalidValue("expected 0, 90, 180 or 270 degrees") }
    return rotation
}

/// Parses `--format`: one of the six DRM pixel format names, in lower case.
func parsePixelFormat(_ word: String) throws(InvalidValue) -> PixelFormat {
    guard let format = PixelFormat(name: word) else {
        throw InvalidValue("expected one of \(listing(PixelFormat.allCases.map(\.name)))")
    }
    return format
}

/// Parses a loader name.
func parseLoader(_ word: String) throws(InvalidValue) -> LoaderKind {
    guard let kind = LoaderKind(rawValue: word) else {
        throw InvalidValue("expected one of \(listing(LoaderKind.allCases.map(\.rawValue)))")
    }
    return kind
}

/// Checks an output path's extension and returns the file format it names.
func parseOutputFormat(_ word: String) throws(InvalidValue) -> ImageFileFormat {
    guard let format = ImageFileFormat(path: word) else {
        throw InvalidValue("the file name must end in .png or .ppm")
    }
    return format
}

/// A plain decimal number (`12`, `1.5`, `.5`, `2e3`), finite.
///
/// Refuses what `Double(_:)` alone would let through and a person never
/// means: `nan`, `inf`, hexadecimal floats (`0x1p3`) and overflow to infinity.
func parseDecimal(_ word: String) -> Double? {
    guard word.contains(where: isASCIIDigit),
        word.allSatisfy({ isASCIIDigit($0) || "+-.eE".contains($0) }),
        let value = Double(word), value.isFinite
    else { return nil }
    return value
}

/// `'a', 'b' or 'c'`.
func listing(_ words: [String]) -> String {
    let quoted = words.map { "'\($0)'" }
    guard quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
}

private func isASCIIDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
