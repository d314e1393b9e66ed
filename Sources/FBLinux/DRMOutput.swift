import FBRaster

/// One dumb buffer with its framebuffer object and mapping: one owner for
/// three kernel resources, each with its own sentinel, so a buffer whose
/// setup failed halfway is released exactly as far as it was built.
final class DumbFramebuffer {
    let width: Int, height: Int
    let format: PixelFormat
    private(set) var handle: DumbHandle?
    private(set) var framebuffer: FramebufferID?
    private(set) var memory: UnsafeMutableRawPointer?
    private(set) var pitch = 0
    private(set) var size = 0
    /// Holds a whole picture of ours (it was presented once): only damage is copied into it then.
    var holdsPicture = false

    init(width: Int, height: Int, format: PixelFormat) {
        self.width = width
        self.height = height
        self.format = format
    }

    /// `CREATE_DUMB`, `drmModeAddFB2`, `MAP_DUMB`, `mmap`: the buffer comes zeroed (black).
    func build(_ card: DRMCard) throws(SystemError) {
        let info = try card.kms.createDumb(
            card.fd, width: width, height: height, bitsPerPixel: format.bytesPerPixel * 8)
        handle = info.handle
        pitch = info.pitch
        size = info.size
        framebuffer = try card.kms.addFramebuffer(
            card.fd, width: width, height: height, fourcc: format.fourcc, handle: info.handle,
            pitch: info.pitch)
        let offset = try card.kms.mapDumb(card.fd, info.handle)
        memory = try card.system.mmap(card.fd, length: info.size, offset: offset)
    }

    /// `drmModeRmFB`, `munmap`, `DESTROY_DUMB`: each only if it was made, each
    /// failure ignored (nothing better to do while shutting down).
    func release(_ card: DRMCard) {
        if let framebuffer {
            try? card.kms.removeFramebuffer(card.fd, framebuffer)
            self.framebuffer = nil
        }
        if let memory {
            card.system.munmap(memory, length: size)
            self.memory = nil
        }
        if let handle {
            try? card.kms.destroyDumb(card.fd, handle)
            self.handle = nil
        }
    }

    /// The mapped pixels.
    var surface: Surface {
        guard let memory else { preconditionFailure("dumb buffer used before it was mapped") }
        return Surface(base: memory, width: width, height: height, stride: pitch, format: format)
    }
}

/// A connected connector with its mode, CRTC and buffers.
final class DRMOutput {
    let connector: ConnectorInfo
    let crtc: CRTCID
    /// The CRTC's position in the card's resources (its bit in `possible_crtcs`).
    let crtcIndex: Int
    let mode: DisplayMode
    /// What the CRTC showed before fbanim: given back on close.
    var saved: CRTCState?
    /// fbanim set the CRTC (so it must be restored).
    var crtcSet = false
    /// The next present sets the CRTC (mode and framebuffer) instead of
    /// flipping: the first one, and the first after taking the display back.
    var needsModeset = true
    var buffers: [DumbFramebuffer] = []
    /// Set when a flip is queued; the flip event's handler clears it.
    let flipPending: UnsafeMutablePointer<Bool>

    init(connector: ConnectorInfo, crtc: CRTCID, crtcIndex: Int, mode: DisplayMode) {
        self.connector = connector
        self.crtc = crtc
        self.crtcIndex = crtcIndex
        self.mode = mode
        flipPending = .allocate(capacity: 1)
        flipPending.initialize(to: false)
    }

    deinit { flipPending.deallocate() }

    /// Gives each connected connector (built-in panels first, then the
    /// kernel's order) its preferred mode and a CRTC no other output uses:
    /// the one its encoder drives now if free, else the first free one any
    /// of its encoders can take. Connectors left without a CRTC are skipped.
    static func assign(
        _ connectors: [ConnectorInfo], encoders: [EncoderID: EncoderInfo], crtcs: [CRTCID]
    ) -> [DRMOutput] {
        var used = Set<CRTCID>()
        var outputs: [DRMOutput] = []
        let ordered =
            connectors.filter { $0.isBuiltIn && $0.status == .connected }
            + connectors.filter { !$0.isBuiltIn && $0.status == .connected }
        for connector in ordered {
            guard let mode = connector.preferredMode, mode.width > 0, mode.height > 0 else {
                continue
            }
            var candidates: [CRTCID] = []
            if let current = connector.currentEncoder.flatMap({ encoders[$0]?.crtc }) {
                candidates.append(current)
            }
            for encoder in connector.encoders.compactMap({ encoders[$0] }) {
                for (index, crtc) in crtcs.enumerated()
                where encoder.possibleCRTCs & (1 << UInt32(index)) != 0 {
                    candidates.append(crtc)
                }
            }
            guard let crtc = candidates.first(where: { !used.contains($0) }),
                let index = crtcs.firstIndex(of: crtc)
            else { continue }
            used.insert(crtc)
            outputs.append(
                DRMOutput(connector: connector, crtc: crtc, crtcIndex: index, mode: mode))
        }
        return outputs
    }

    /// The format to draw in: RGB565 where the device prefers 16 bits a pixel
    /// (`DRM_CAP_DUMB_PREFERRED_DEPTH`, small SPI and DPI panels), XRGB8888
    /// otherwise; if the primary planes list formats and lack that one, the
    /// first of fbanim's formats they do list.
    static func chooseFormat(preferredDepth: UInt64?, planeFormats: [UInt32]) -> PixelFormat {
        let preferred: PixelFormat = preferredDepth == 16 ? .rgb565 : .xrgb8888
        guard !planeFormats.isEmpty, !planeFormats.contains(preferred.fourcc) else {
            return preferred
        }
        let order: [PixelFormat] = [.xrgb8888, .rgb565, .argb8888, .xbgr8888, .bgr565, .rgb888]
        return order.first { planeFormats.contains($0.fourcc) } ?? preferred
    }
}

/// An open DRM device with what fbanim made on it: master, outputs, buffers.
/// `teardown()` gives everything back in reverse order, each step guarded.
final class DRMCard {
    let path: String
    let system: SystemCalls
    let kms: ModeSetting
    let fd: FileDescriptor
    var isMaster = false
    var outputs: [DRMOutput] = []
    private var isTornDown = false

    init(path: String, system: SystemCalls, kms: ModeSetting, fd: FileDescriptor) {
        self.path = path
        self.system = system
        self.kms = kms
        self.fd = fd
    }

    /// Restores every CRTC fbanim set (`drmModeSetCrtc` with the saved
    /// framebuffer, position and mode, or off), then releases every buffer
    /// (last made first), drops master and closes the device. Safe to call twice.
    func teardown() {
        guard !isTornDown else { return }
        isTornDown = true
        for output in outputs.reversed() where output.crtcSet {
            output.crtcSet = false
            guard let saved = output.saved else { continue }
            try? kms.setCRTC(
                fd, saved.id, framebuffer: saved.mode == nil ? nil : saved.framebuffer, x: saved.x,
                y: saved.y, connectors: [output.connector.id], mode: saved.mode)
        }
        for output in outputs.reversed() {
            for buffer in output.buffers.reversed() { buffer.release(self) }
        }
        if isMaster {
            kms.dropMaster(fd)
            isMaster = false
        }
        system.close(fd)
    }
}
