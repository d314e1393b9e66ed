import Foundation
import Testing

// Golden images: exact, byte-equal comparisons of a frame with a PNG kept
// next to the tests, with a record mode and pictures of any mismatch.

/// What comparing a frame with its golden image found.
public enum GoldenOutcome: Equatable, Sendable {
    case matched
    /// Record mode (`FBANIM_RECORD_GOLDENS=1`): the golden was (re)written at this path.
    case recorded(path: String)
    /// No golden yet at this path.
    case missing(path: String)
    /// The frame differs; the message names the pictures written.
    case mismatch(message: String)
}

/// True when `FBANIM_RECORD_GOLDENS=1`: goldens are written, not compared.
public var recordingGoldens: Bool {
    ProcessInfo.processInfo.environment["FBANIM_RECORD_GOLDENS"] == "1"
}

/// Compares packed RGB with `<directory>/<name>.png`, byte for byte (or, when
/// `record` is set, writes it there).
///
/// On a mismatch, writes `<name>_actual.png` and `<name>_err.png` (golden,
/// actual, and their difference times 8, side by side) into
/// `testOutputDirectory()` and names them in the message.
public func checkGolden(
    name: String, rgb: [UInt8], width: Int, height: Int, directory: String,
    record: Bool = recordingGoldens
) -> GoldenOutcome {
    let path = (directory as NSString).appendingPathComponent(name + ".png")
    let image = RGBImage(width: width, height: height, rgb: rgb)
    if record {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true)
            try writePNG(image, to: path)
        } catch {
            return .mismatch(message: "could not record golden \(path): \(error)")
        }
        return .recorded(path: path)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        return .missing(path: path)
    }
    let golden: RGBImage
    do {
        golden = try decodePNG([UInt8](data))
    } catch {
        return .mismatch(message: "golden \(path) unreadable: \(error)")
    }
    if golden == image { return .matched }
    let dir = testOutputDirectory()
    let actualPath = (dir as NSString).appendingPathComponent(name + "_actual.png")
    let errPath = (dir as NSString).appendingPathComponent(name + "_err.png")
    try? writePNG(image, to: actualPath)
    guard golden.width == width, golden.height == height else {
        return .mismatch(
            message: "\(name): golden is \(golden.width)x\(golden.height), frame is "
                + "\(width)x\(height); frame written to \(actualPath)")
    }
    let a = RefImage(width: width, height: height, rgb: rgb)
    let e = RefImage(width: width, height: height, rgb: golden.rgb)
    let whole = CompareRegion(
        cx: Double(width) / 2, cy: Double(height) / 2,
        radius: Double(width + height))
    let diff = compareImages(a, e, region: whole, threshold: 0)
    try? writePNG(differencePicture(actual: a, expected: e), to: errPath)
    return .mismatch(
        message: "\(name) differs from its golden \(path): \(diff). "
            + "Wrote \(actualPath) and \(errPath) (golden | actual | diff x8). "
            + "If the change is intended, re-record with FBANIM_RECORD_GOLDENS=1.")
}

/// Checks a frame against `Goldens/<name>.png` beside the calling test file
/// (found through `#filePath`, so recording writes into the source tree).
/// Records a test issue on a mismatch or a missing golden; in record mode,
/// writes the golden and records a warning.
public func assertGolden(
    name: String, rgb: [UInt8], width: Int, height: Int,
    filePath: StaticString = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let testDir = ("\(filePath)" as NSString).deletingLastPathComponent
    let dir = (testDir as NSString).appendingPathComponent("Goldens")
    switch checkGolden(name: name, rgb: rgb, width: width, height: height, directory: dir) {
    case .matched:
        break
    case .recorded(let path):
        Issue.record(
            "recorded golden \(path) (FBANIM_RECORD_GOLDENS=1)", severity: .warning,
            sourceLocation: sourceLocation)
    case .missing(let path):
        Issue.record(
            "no golden at \(path): run the tests once with FBANIM_RECORD_GOLDENS=1",
            sourceLocation: sourceLocation)
    case .mismatch(let message):
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
