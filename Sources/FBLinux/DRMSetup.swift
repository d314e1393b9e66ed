import CFBLinux
import FBRaster
import Glibc

extension DRMDisplay {
    /// What a DRM device offers, read without becoming master: enough to
    /// choose it (`fbanim devices`, the default device) and to set it up.
    struct Probe {
        var driver: (name: String, description: String)
        var resources: CardResources
        var connectors: [ConnectorInfo]
        var encoders: [EncoderID: EncoderInfo]

        /// `drmGetVersion`, `drmGetCap(DUMB_BUFFER)`, `drmModeGetResources`,
        /// then each connector and encoder.
        /// - Throws: `DeviceError.unusable` for a file that is not a KMS
        ///   device with dumb buffers.
        init(_ card: DRMCard) throws(DeviceError) {
            let (kms, fd, path) = (card.kms, card.fd, card.path)
            do throws(SystemError) {
                driver = try kms.driver(fd)
            } catch {
                throw DeviceError(.unusable, path: path, "not a DRM device", underlying: error)
            }
            guard kms.capability(fd, fbl_DRM_CAP_DUMB_BUFFER) == 1 else {
                throw DeviceError(
                    .unusable, path: path,
                    "\(driver.name) has no dumb buffers (not a display controller)")
            }
            do throws(SystemError) {
                resources = try kms.resources(fd)
                // One odd object (a connector that vanished, a writeback one)
                // does not make the card unusable: skip it.
                connectors = resources.connectors.compactMap { try? kms.connector(fd, $0) }
                var encoders: [EncoderID: EncoderInfo] = [:]
                for id in resources.encoders { encoders[id] = try? kms.encoder(fd, id) }
                self.encoders = encoders
            } catch {
                if [EINVAL, EOPNOTSUPP, ENOTSUP].contains(error.errno) {
                    throw DeviceError(
                        .unusable, path: path, "\(driver.name) does no mode setting (no outputs)",
                        underlying: error)
                }
                throw DeviceError.setting(path, "reading the outputs", error)
            }
        }

        var hasConnectedOutput: Bool {
            connectors.contains { $0.status == .connected && !$0.modes.isEmpty }
        }
    }

    /// Sets `card` up for showing frames; on a throw, what was made stays in
    /// `card` for its `teardown()`.
    ///
    /// Probe, pick outputs, `drmSetMaster`, save each CRTC, choose the format,
    /// one dumb buffer per output, probe `drmModeDirtyFB` and (when it answers
    /// `ENOSYS`) the vertical blank, and for page flips a second buffer per output. No CRTC is set here: the first present
    /// sets each with the first frame, so whatever showed before (firmware
    /// splash, console, the program that handed over) is replaced by the
    /// picture, never by a black screen.
    static func setUp(_ card: DRMCard, connector: String? = nil, format wanted: PixelFormat? = nil)
        throws(DeviceError) -> (Presentation, PixelBuffer?)
    {
        let (kms, fd, path) = (card.kms, card.fd, card.path)
        let probe = try Probe(card)
        if let connector, !probe.connectors.contains(where: { $0.name == connector }) {
            let known = probe.connectors.map(\.name).joined(separator: ", ")
            throw DeviceError(
                .missing, path: path,
                "\(probe.driver.name) has no connector \(connector) (it has \(known))")
        }
        let outputs = DRMOutput.assign(
            probe.connectors.filter { connector == nil || $0.name == connector },
            encoders: probe.encoders, crtcs: probe.resources.crtcs)
        guard !outputs.isEmpty else {
            if let connector {
                throw DeviceError(.unusable, path: path, "\(connector) is not connected")
            }
            let reason =
                probe.hasConnectedOutput
                ? "no free CRTC for the connected outputs"
                : "no connected output (is a screen plugged in?)"
            throw DeviceError(.unusable, path: path, reason)
        }
        do throws(SystemError) {
            try kms.becomeMaster(fd)
        } catch {
            throw DeviceError(
                .busy, path: path,
                "another program (a display server?) is using \(path) (\(error.reason))",
                underlying: error)
        }
        card.isMaster = true
        card.outputs = outputs
        let planeFormats = commonFormats(
            outputs.map { kms.primaryPlaneFormats(fd, crtcIndex: $0.crtcIndex) })
        var format = DRMOutput.chooseFormat(
            preferredDepth: kms.capability(fd, fbl_DRM_CAP_DUMB_PREFERRED_DEPTH),
            planeFormats: planeFormats)
        // A format asked for (a board profile's) where the planes take it;
        // planes that list nothing are trusted with it.
        if let wanted, planeFormats.isEmpty || planeFormats.contains(wanted.fourcc) {
            format = wanted
        }
        do throws(SystemError) {
            for output in outputs {
                output.saved = try kms.crtc(fd, output.crtc)
                try addBuffer(to: output, format: format, card)
            }
        } catch {
            throw DeviceError.setting(path, "creating \(format.name) dumb buffers", error)
        }
        let presentation: Presentation
        do throws(SystemError) {
            // Asked of a framebuffer no plane shows yet: drivers without a
            // dirty hook answer ENOSYS whatever it shows.
            try kms.dirtyFramebuffer(fd, outputs[0].buffers[0].framebuffer!, clips: [])
            presentation = .damage
        } catch {
            guard ![ENODEV, EIO].contains(error.errno) else {
                throw DeviceError.setting(path, "reporting damage", error)
            }
            // Scanout straight from memory. Without a vertical blank to
            // wait for, a flip lands at once, mid-scan like a copy, and
            // costs an atomic commit, a kernel worker's wake-up and an
            // event to read each frame: copy the damage into the buffer on
            // screen instead, as for a damage-reporting driver.
            presentation =
                kms.hasVerticalBlank(fd, outputs[0].crtc) ? .pageFlip : .inPlace
        }
        if presentation == .pageFlip {
            do throws(SystemError) {
                for output in outputs { try addBuffer(to: output, format: format, card) }
            } catch {
                throw DeviceError.setting(path, "creating the second dumb buffers", error)
            }
        }
        let prefersShadow = kms.capability(fd, fbl_DRM_CAP_DUMB_PREFER_SHADOW) == 1
        let direct = presentation == .pageFlip && outputs.count == 1 && !prefersShadow
        let shadow =
            direct
            ? nil
            : PixelBuffer(
                width: outputs[0].mode.width, height: outputs[0].mode.height, format: format)
        return (presentation, shadow)
    }

    private static func addBuffer(to output: DRMOutput, format: PixelFormat, _ card: DRMCard)
        throws(SystemError)
    {
        let buffer = DumbFramebuffer(
            width: output.mode.width, height: output.mode.height, format: format)
        // Owned by the output before it is built, so a half-built buffer is released too.
        output.buffers.append(buffer)
        try buffer.build(card)
    }

    /// The formats every output's primary plane lists (outputs that list none are not asked).
    static func commonFormats(_ lists: [[UInt32]]) -> [UInt32] {
        let known = lists.filter { !$0.isEmpty }
        guard let first = known.first else { return [] }
        return first.filter { format in known.allSatisfy { $0.contains(format) } }
    }
}
