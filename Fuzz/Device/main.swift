// libFuzzer target for `--device` names (FBDisplay.DeviceName: paths,
// drm:DRIVER[:CONNECTOR], fb:ID, sim:WxH[:FORMAT][?key=value&...], term).
// Properties: parsing never traps; an error is one line with no control
// character and a bounded length; a name taken is within its limits and
// comes back from its canonical spelling as the same value (drm: and fb:
// names are their own spelling).
// Built only by Scripts/fuzz.sh (FBANIM_FUZZ=1).
import FBDisplay
import FBRaster

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    // The same text behind each prefix, so the fuzzer need not find them.
    for name in [text, "sim:" + text, "drm:" + text, "fb:" + text] {
        check(name)
    }
    return 0
}

private func check(_ text: String) {
    let device: DeviceName
    do {
        device = try DeviceName.parse(text)
    } catch {
        let why = error.description
        precondition(!why.isEmpty)
        precondition(!why.unicodeScalars.contains(where: isControl), "control character: \(why)")
        // The name is echoed at most once or twice, and is at most 1024 bytes.
        precondition(why.utf8.count <= 2 * DeviceName.maximumLength + 200, "error too long")
        return
    }
    precondition(text.utf8.count <= DeviceName.maximumLength)
    precondition(!text.unicodeScalars.contains(where: isControl))
    switch device {
    case .drmDriver(let driver, let connector):
        precondition(!driver.isEmpty && !driver.contains(":") && connector?.contains(":") != true)
        precondition(text == "drm:" + driver + (connector.map { ":" + $0 } ?? ""))
    case .fbID(let id):
        precondition(!id.isEmpty && id.utf8.count <= 15 && text == "fb:" + id)
    case .fbdev(let path):
        precondition(path == text && path.hasPrefix("/") && !path.hasPrefix("/dev/dri/"))
    case .drm(let path):
        precondition(path == text && path.hasPrefix("/dev/dri/"))
    case .terminal:
        precondition(text == "term")
    case .simulated(let options):
        precondition((1...8192).contains(options.width) && (1...8192).contains(options.height))
        precondition((1...1000).contains(options.refreshHz))
        precondition(options.presentNanoseconds <= 10_000_000_000)
        let again = try? DeviceName.parse(canonical(options))
        precondition(
            again == device, "\(canonical(options)) reads back as \(String(describing: again))")
    }
}

/// The `sim:` name that spells out every option of `options`.
private func canonical(_ options: SimulatedDisplay.Options) -> String {
    let ns = options.presentNanoseconds
    var fraction = String(ns % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    return
        "sim:\(options.width)x\(options.height):\(options.format.name)?refresh=\(options.refreshHz)"
        + "&present_ms=\(ns / 1_000_000).\(fraction)"
        + (options.virtualClock ? "&clock=virtual" : "")
}

/// C0 and C1 controls, DEL, line and paragraph separators, a byte order mark.
private func isControl(_ s: Unicode.Scalar) -> Bool {
    s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s == "\u{2028}" || s == "\u{2029}"
        || s == "\u{FEFF}"
}
