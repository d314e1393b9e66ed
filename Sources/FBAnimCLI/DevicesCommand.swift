import FBBoot
import FBDisplay
import FBLinux
import FBRaster

/// The help paragraph of `fbanim devices`.
let devicesDiscussion = """
    Lists what a board profile or --device needs: each DRM/KMS device (/dev/dri/cardN) with \
    the stable names that find it whatever its number (drm:DRIVER, drm:DRIVER:CONNECTOR for \
    each connected output, its /dev/dri/by-path links), its driver, its connectors with \
    their type, status, modes and panel orientation (and how far fbanim turns the picture \
    for it and for video=...,rotate= on the kernel command line), and the formats of its \
    primary plane; each framebuffer device (/dev/fbN) with its fb:ID name, size, pixel \
    format and bitfields; and the device fbanim plays on without --device. Opens the \
    devices without taking them over: nothing on screen changes.
    """

/// `fbanim devices`: what displays this machine has, and which fbanim would use.
func runDevices(_ words: ArraySlice<String>) throws(CLIError) {
    let parsed = try parseCommandLine(words, for: .devices)
    if parsed.wantsHelp {
        try writeOutput(helpText(for: .devices))
        return
    }
    // A /dev/dri this user may not list is a permission problem, as it is
    // for playing (77 and the hint), not "no display".
    let unlistable = DeviceDiscovery.unlistableDRMFolder().map {
        "cannot list /dev/dri (\($0.reason)); \(permissionHint)"
    }
    let cards = DeviceDiscovery.drmCards().map { DeviceDiscovery.probeCard($0) }
    let framebuffers = DeviceDiscovery.framebuffers().map { DeviceDiscovery.probeFramebuffer($0) }
    try writeOutput(
        devicesListing(
            cards: cards, framebuffers: framebuffers, isTerminal: StandardStream.output.isTerminal,
            commandLine: KernelCommandLine(BootEnvironment.kernelCommandLine()),
            unlistableDRM: unlistable))
    if let unlistable { throw .noPermission(unlistable) }
}

/// The listing, as `fbanim devices` prints it; `commandLine` is the
/// kernel's (its `video=` options turn pictures).
func devicesListing(
    cards: [Result<DRMCardReport, DeviceError>], framebuffers: [FramebufferReport],
    isTerminal: Bool,
    commandLine: KernelCommandLine = KernelCommandLine(""),
    unlistableDRM: String? = nil
) -> String {
    var text = "DRM/KMS devices:\n"
    if let unlistableDRM {
        text += "  \(unlistableDRM)\n"
    } else if cards.isEmpty {
        text += "  none (no /dev/dri/card*)\n"
    }
    for card in cards {
        switch card {
        case let .success(report): text += describe(report, commandLine)
        case let .failure(error): text += "  \(describeFailure(error))\n"
        }
    }
    text += "fbdev devices:\n"
    if framebuffers.isEmpty { text += "  none (no /dev/fb*)\n" }
    for fb in framebuffers {
        switch fb.geometry {
        case let .success(g):
            text += "  \(fb.path)"
            if (try? DeviceName.parse("fb:\(g.name)")) != nil {
                text += ": fb:\(g.name),"
            } else {
                text += ":"
            }
            let pages = g.pages == 2 ? "2 pages (page flipping)" : "1 page"
            text += " \(g.width)x\(g.height) \(g.format.name) (\(g.layout)), "
            text += "stride \(g.stride) bytes, \(pages)"
            if let hz = g.refreshHz { text += ", \(hz) Hz" }
            text += "\n"
        case let .failure(error):
            text += "  \(describeFailure(error))\n"
        }
    }
    text +=
        "Without --device fbanim would use: "
        + (unlistableDRM != nil
            ? "nothing: permission denied on /dev/dri (see above)"
            : choice(cards: cards, framebuffers: framebuffers, isTerminal: isTerminal)) + "\n"
    return text
}

private func describe(_ card: DRMCardReport, _ commandLine: KernelCommandLine) -> String {
    var text = "  \(card.path): \(card.driver)"
    if !card.driverDescription.isEmpty { text += " (\(card.driverDescription))" }
    text += "\n    names: " + (["drm:\(card.driver)"] + card.links).joined(separator: ", ") + "\n"
    if card.connectors.isEmpty { text += "    no connectors\n" }
    for connector in card.connectors {
        text += "    \(connector.name) (\(connector.typeName)): \(connector.status.rawValue)"
        if connector.status == .connected { text += ", drm:\(card.driver):\(connector.name)" }
        if !connector.modes.isEmpty {
            let shown = connector.modes.prefix(6).map {
                $0.summary + ($0.isPreferred ? " (preferred)" : "")
            }
            let count = connector.modes.count
            text += ", \(count) mode\(count == 1 ? "" : "s"): \(shown.joined(separator: ", "))"
            if connector.modes.count > 6 { text += ", ..." }
        }
        text += "\n"
        if let turn = turning(connector, commandLine) { text += "      \(turn)\n" }
    }
    let formats =
        card.planeFormats.isEmpty ? "not reported" : card.planeFormats.joined(separator: " ")
    text += "    primary plane formats: \(formats)\n"
    text +=
        "    dumb buffers: preferred depth \(card.preferredDepth.map(String.init) ?? "not reported"), "
    text +=
        "shadow \(card.prefersShadow ? "preferred" : "not needed"); fbanim draws \(card.format.name)\n"
    return text
}

/// The connector's panel orientation and `video=` rotation, and what fbanim
/// makes of them; `nil` when there is neither.
private func turning(_ connector: ConnectorInfo, _ commandLine: KernelCommandLine) -> String? {
    let rotate = commandLine.videoRotation(for: connector.name)
    guard connector.panelOrientation != nil || rotate != nil else { return nil }
    var parts: [String] = []
    if let orientation = connector.panelOrientation {
        parts.append("panel orientation \(orientation.name)")
    }
    if let rotate { parts.append("video=\(connector.name):...,rotate=\(rotate)") }
    let turn = pictureRotation(orientation: connector.panelOrientation, commandLineDegrees: rotate)
    return parts.joined(separator: ", ") + ": fbanim turns its picture \(turn) clockwise"
}

private func describeFailure(_ error: DeviceError) -> String {
    error.kind == .permissionDenied ? "\(error.description) (\(permissionHint))" : error.description
}

/// The device `openDisplay` picks without `--device`, as far as a listing can tell.
private func choice(
    cards: [Result<DRMCardReport, DeviceError>], framebuffers: [FramebufferReport], isTerminal: Bool
) -> String {
    for case let .success(card) in cards where card.hasConnectedOutput {
        let outputs = card.connectors.filter { $0.status == .connected && !$0.modes.isEmpty }
        let names = outputs.map { c in c.name + (c.preferredMode.map { " " + $0.summary } ?? "") }
        return "\(card.path) (\(names.joined(separator: ", ")))"
    }
    // As openDisplay: a card this user may not open stops the search.
    for case let .failure(error) in cards where error.kind == .permissionDenied {
        return "nothing: permission denied on \(error.path) (see above)"
    }
    if let fb0 = framebuffers.first(where: { $0.path == "/dev/fb0" }) {
        if case let .success(g) = fb0.geometry {
            return "/dev/fb0 (\(g.width)x\(g.height) \(g.format.name))"
        }
        return "/dev/fb0, which cannot be used (see above)"
    }
    return isTerminal
        ? "term (this terminal)" : "nothing (no display, and standard output is not a terminal)"
}
