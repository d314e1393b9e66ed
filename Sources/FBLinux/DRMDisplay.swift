import CFBLinux
import FBBoot
import FBDisplay
import FBRaster
import FBScheduler
import Glibc

/// A DRM/KMS device (`/dev/dri/cardN`) as a display, with dumb buffers through libdrm.
///
/// Every connected output shows the loader. It is drawn once, at the mode
/// size of the first output (built-in panels come first), and copied to the
/// others centred: a mirror of the same size gets the same picture, a larger
/// screen the picture in its middle with the margins in the picture's
/// corner colour (the background: loaders are centred), a smaller one the
/// middle of the picture. Each output keeps its own preferred mode, so no
/// screen is driven at a mode it does not like.
///
/// The first present sets each output's CRTC to the first frame (nothing
/// black is shown before it). How the next frames reach the screen depends
/// on the driver, probed once when opening with a `drmModeDirtyFB`:
/// - Scanout straight from memory (`DirtyFB` answers `ENOSYS`: vc4, bochs,
///   vkms, most SoCs) with a vertical blank (vc4, vkms, most SoCs): two
///   dumb buffers per output, page flips with
///   `DRM_MODE_PAGE_FLIP_EVENT`; the next `backBuffer()` waits for the event,
///   which lands on the vertical blank. With one output and no
///   `DRM_CAP_DUMB_PREFER_SHADOW`, fbanim draws straight into the dumb buffer
///   (age 2); otherwise into a cached shadow copied by damage (age 1).
/// - Scanout straight from memory without a vertical blank
///   (`drmCrtcGetSequence` answers `EOPNOTSUPP`: bochs, ast, cirrus): a flip
///   would land at once, mid-scan, no better than a copy, and costs an
///   atomic commit, a kernel worker's wake-up and an event to read each
///   frame. So, as Plymouth does, one dumb buffer per output stays on
///   screen and the damage is copied into it from a shadow buffer (age 1);
///   nothing is reported.
/// - Drivers that copy what they are told changed (`DirtyFB` works:
///   virtio-gpu, SPI and USB panels via tinydrm/mipi-dbi, gud, udl): a page
///   flip makes them send the whole frame (slow over SPI), so fbanim keeps
///   one dumb buffer per output on screen, copies the damage into it from a
///   shadow buffer and reports exactly that damage with `drmModeDirtyFB`.
package final class DRMDisplay: Display {
    /// How presents reach the screen (see the type's documentation).
    package enum Presentation: String, Sendable {
        case pageFlip = "page flips"
        case damage = "damage reports (DirtyFB)"
        case inPlace = "copies into the buffer on screen (no vertical blank)"
    }

    package let description: DisplayDescription
    package let clock: FrameClock? = nil
    package let presentation: Presentation
    /// The VT held in graphics mode while this display is open; restored by `close()`.
    package var console: Console?
    /// The outputs' connector names and modes, as in `Virtual-1 480x320@60`.
    package var outputSummaries: [String] {
        card.outputs.map { "\($0.connector.name) \($0.mode.summary)" }
    }
    /// Degrees clockwise the picture must turn for the first output's panel
    /// orientation and its `video=...,rotate=` (see `Display.panelRotation`).
    package let panelRotation: Int

    let card: DRMCard
    /// The clock the flip waits' timeouts are read on.
    let time: FrameClock
    /// The cached buffer fbanim draws into; `nil` when it draws straight into the dumb buffer.
    private let shadow: PixelBuffer?
    var front = 0
    private var previousDamage: [IntRect] = []
    /// Scratch lists, kept so a steady present allocates nothing.
    private var rects: [IntRect] = []
    private var copied: [IntRect] = []
    private var clips: [IntRect] = []
    private var presented = false
    private var dirtyWorks = true
    private var flipsWork = true
    var isClosed = false
    /// Framebuffers left on screen by `closeRetainingPicture()` on a kernel without CLOSEFB.
    var retained: [FramebufferID] = []

    /// Opens the device and becomes master, ready to show frames on every
    /// connected output (only on `connector`, as in `DSI-1`, when named).
    ///
    /// - Parameters:
    ///   - format: the pixel format to draw in, when the primary planes
    ///     take it (a board profile's `format`); otherwise fbanim's choice.
    ///   - kernelCommandLine: the kernel command line whose `video=` options
    ///     turn the picture; `nil` reads `/proc/cmdline`.
    ///   - time: the clock the waits for flip events are timed on.
    /// - Throws: `DeviceError`: `.missing`, `.permissionDenied`; `.busy`
    ///   when another program (a display server) is master; `.unusable` for
    ///   a file that is not a DRM device, a device without dumb buffers or
    ///   without a connected output, or a mode the driver refuses.
    package init(
        path: String, connector: String? = nil, format: PixelFormat? = nil,
        kernelCommandLine: String? = nil, system: SystemCalls = LinuxSystemCalls.shared,
        kms: ModeSetting = LibDRM.shared, time: FrameClock = MonotonicClock.shared
    ) throws(DeviceError) {
        self.time = time
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try system.open(path, flags: O_RDWR)
        } catch {
            throw DeviceError.opening(path, error)
        }
        let card = DRMCard(path: path, system: system, kms: kms, fd: fd)
        do throws(DeviceError) {
            let setup = try DRMDisplay.setUp(card, connector: connector, format: format)
            presentation = setup.0
            shadow = setup.1
        } catch {
            card.teardown()
            throw error
        }
        self.card = card
        let first = card.outputs[0]
        let format = first.buffers[0].format
        description = DisplayDescription(
            name: "\(path) (\(card.outputs.map(\.connector.name).joined(separator: ", ")))",
            width: first.mode.width, height: first.mode.height, format: format,
            refreshHz: first.mode.refreshHz > 0 ? first.mode.refreshHz : nil)
        let commandLine = KernelCommandLine(
            kernelCommandLine ?? BootEnvironment.kernelCommandLine())
        panelRotation = pictureRotation(
            orientation: first.connector.panelOrientation,
            commandLineDegrees: commandLine.videoRotation(for: first.connector.name))
        previousDamage.reserveCapacity(16)
        rects.reserveCapacity(16)
        copied.reserveCapacity(32)
        clips.reserveCapacity(32)
    }

    deinit { close() }

    /// The buffer for the next frame. With page flips, first waits (`poll`,
    /// `drmHandleEvent`) for the flip queued by the last present: until it
    /// completes the buffer it replaces is still scanned out.
    /// - Throws: `SystemError` when the device fails or no flip event comes within a second.
    package func backBuffer() throws -> BackBuffer {
        try waitForFlips(timeoutNanoseconds: 1_000_000_000)
        if let shadow { return BackBuffer(surface: shadow.surface, age: presented ? 1 : 0) }
        let buffer = card.outputs[0].buffers[1 - front]
        return BackBuffer(surface: buffer.surface, age: buffer.holdsPicture ? 2 : 0)
    }

    /// Shows the frame: copies the damage where needed, then queues the page
    /// flips (or reports the damage with `drmModeDirtyFB`, or, in place,
    /// does nothing more). Does not wait for the blank.
    /// - Throws: `SystemError` from the flip or dirty call (`ENODEV`, `EIO`: the device went away).
    package func present(damage: [IntRect]) throws {
        guard !isClosed else { throw SystemError(errno: EBADF, call: "present after close") }
        let size = (description.width, description.height)
        let screen = IntRect(x: 0, y: 0, width: size.0, height: size.1)
        rects.removeAll(keepingCapacity: true)
        for r in damage where !r.intersection(screen).isEmpty {
            rects.append(r.intersection(screen))
        }
        let target = presentation == .pageFlip ? 1 - front : 0
        for output in card.outputs {
            let buffer = output.buffers[target]
            let (dx, dy) = DamageCopy.centring(size, on: (output.mode.width, output.mode.height))
            copied.removeAll(keepingCapacity: true)
            copied.append(contentsOf: rects)
            if let shadow {
                if !buffer.holdsPicture {
                    if dx != 0 || dy != 0 {
                        DamageCopy.fill(buffer.surface, withPixelOf: shadow.surface, x: 0, y: 0)
                    }
                    copied.removeAll(keepingCapacity: true)
                    copied.append(screen)
                } else if presentation == .pageFlip {
                    // This buffer is two frames old: it lacks the last frame's damage too.
                    copied.append(contentsOf: previousDamage)
                }
                DamageCopy.copy(copied, from: shadow.surface, to: buffer.surface, dx: dx, dy: dy)
            }
            buffer.holdsPicture = true
            if output.needsModeset {
                try setMode(output, to: buffer)
                if presentation == .inPlace, let shadow {
                    // Setting the CRTC may have moved the buffer into scanout
                    // memory (VRAM helpers pin it there): write the picture
                    // again where the screen now reads it.
                    DamageCopy.copy(
                        copied, from: shadow.surface, to: buffer.surface, dx: dx, dy: dy)
                }
                continue
            }
            switch presentation {
            case .pageFlip: try flip(output, to: buffer)
            case .damage: try reportDamage(copied, moved: (dx, dy), of: buffer, output: output)
            case .inPlace: break
            }
        }
        front = target
        presented = true
        previousDamage.removeAll(keepingCapacity: true)
        previousDamage.append(contentsOf: rects)
    }

    /// Waits for pending flips, restores each CRTC, releases the buffers,
    /// drops master, closes the device, then gives the console back. Safe to call twice.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        // A flip still in flight would land on a buffer about to be freed.
        try? waitForFlips(timeoutNanoseconds: 200_000_000)
        card.teardown()
        console?.restore()
        console = nil
    }

    private func flip(_ output: DRMOutput, to buffer: DumbFramebuffer) throws(SystemError) {
        guard let fb = buffer.framebuffer else { return }
        if flipsWork {
            output.flipPending.pointee = true
            do {
                try card.kms.pageFlip(card.fd, output.crtc, to: fb, pending: output.flipPending)
                return
            } catch {
                output.flipPending.pointee = false
                // Drivers without page flips: set the CRTC every frame instead.
                guard [EINVAL, ENOSYS, EOPNOTSUPP].contains(error.errno) else { throw error }
                flipsWork = false
            }
        }
        try card.kms.setCRTC(
            card.fd, output.crtc, framebuffer: fb, x: 0, y: 0, connectors: [output.connector.id],
            mode: output.mode)
    }

    /// Sets the output's CRTC to show `buffer` at the output's mode: the
    /// whole picture appears at once (no DirtyFB needed).
    func setMode(_ output: DRMOutput, to buffer: DumbFramebuffer) throws(SystemError) {
        guard let fb = buffer.framebuffer else { return }
        output.crtcSet = true
        try card.kms.setCRTC(
            card.fd, output.crtc, framebuffer: fb, x: 0, y: 0, connectors: [output.connector.id],
            mode: output.mode)
        output.needsModeset = false
    }

    private func reportDamage(
        _ rects: [IntRect], moved d: (Int, Int), of buffer: DumbFramebuffer, output: DRMOutput
    ) throws(SystemError) {
        guard dirtyWorks, let fb = buffer.framebuffer else { return }
        let bounds = IntRect(x: 0, y: 0, width: output.mode.width, height: output.mode.height)
        clips.removeAll(keepingCapacity: true)
        for r in rects {
            let moved = IntRect(x: r.x + d.0, y: r.y + d.1, width: r.width, height: r.height)
                .intersection(bounds)
            if !moved.isEmpty { clips.append(moved) }
        }
        guard !clips.isEmpty else { return }
        do {
            try card.kms.dirtyFramebuffer(card.fd, fb, clips: clips)
        } catch {
            guard error.errno == ENOSYS else { throw error }
            dirtyWorks = false
        }
    }

    /// Handles flip events until no output has a flip pending.
    func waitForFlips(timeoutNanoseconds: UInt64) throws(SystemError) {
        guard card.outputs.contains(where: { $0.flipPending.pointee }) else { return }
        let deadline = time.now() + timeoutNanoseconds
        while card.outputs.contains(where: { $0.flipPending.pointee }) {
            let now = time.now()
            guard now < deadline else {
                throw SystemError(errno: ETIMEDOUT, call: "waiting for the page flip event")
            }
            let ms = Int32(min((deadline - now + 999_999) / 1_000_000, 1000))
            if try card.system.pollInput(card.fd, timeoutMilliseconds: ms) {
                try card.kms.handleEvents(card.fd)
            }
        }
    }
}
