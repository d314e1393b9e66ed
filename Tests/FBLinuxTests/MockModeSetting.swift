import FBLinux
import FBRaster
import Glibc

/// A DRM device in memory: answers `ModeSetting` from its tables and records
/// each call in the `MockSystemCalls` trace it shares, so one trace shows
/// the order of libdrm calls, mmaps and closes.
final class MockModeSetting: ModeSetting {
    let system: MockSystemCalls
    var driverName = "mockdrm"
    var capabilities: [UInt64: UInt64] = [:]
    var connectors: [ConnectorInfo] = []
    var encoders: [EncoderInfo] = []
    var crtcs: [CRTCID] = []
    /// What `drmModeGetCrtc` answers; `setCRTC` and `pageFlip` change it as
    /// the kernel would (a test may too: another program's mode set).
    var crtcStates: [CRTCID: CRTCState] = [:]
    var planeFormats: [UInt32] = []
    /// Calls (by name, as in the trace) that fail with this errno.
    var errors: [String: Int32] = [:]
    /// What `hasVerticalBlank` answers (bochs, virtio-gpu: `false`).
    var verticalBlank = true
    /// The nth `createDumb` (from 1) fails with ENOMEM.
    var failCreateDumb: Int?
    /// Pending-flip flags of queued flips; `handleEvents` completes them.
    private var pending: [UnsafeMutablePointer<Bool>] = []
    private var nextObject: UInt32 = 100
    private var dumbs = 0

    init(system: MockSystemCalls) { self.system = system }

    private func record(_ call: String, _ name: String) throws(SystemError) {
        system.trace.append(call)
        if let code = errors[name] { throw SystemError(errno: code, call: name) }
    }

    private func newID() -> UInt32 {
        nextObject += 1
        return nextObject
    }

    func driver(_ fd: FileDescriptor) throws(SystemError) -> (name: String, description: String) {
        try record("drmGetVersion", "drmGetVersion")
        return (driverName, "a mock")
    }

    func capability(_ fd: FileDescriptor, _ capability: UInt64) -> UInt64? {
        capabilities[capability]
    }

    func becomeMaster(_ fd: FileDescriptor) throws(SystemError) {
        try record("drmSetMaster", "drmSetMaster")
    }

    func dropMaster(_ fd: FileDescriptor) { system.trace.append("drmDropMaster") }

    func resources(_ fd: FileDescriptor) throws(SystemError) -> CardResources {
        try record("drmModeGetResources", "drmModeGetResources")
        return CardResources(
            connectors: connectors.map(\.id), encoders: encoders.map(\.id), crtcs: crtcs)
    }

    func connector(_ fd: FileDescriptor, _ id: ConnectorID) throws(SystemError) -> ConnectorInfo {
        connectors.first { $0.id == id }!
    }

    func encoder(_ fd: FileDescriptor, _ id: EncoderID) throws(SystemError) -> EncoderInfo {
        encoders.first { $0.id == id }!
    }

    func crtc(_ fd: FileDescriptor, _ id: CRTCID) throws(SystemError) -> CRTCState {
        try record("drmModeGetCrtc \(id)", "drmModeGetCrtc")
        return crtcStates[id] ?? CRTCState(id: id, framebuffer: nil, x: 0, y: 0, mode: nil)
    }

    func primaryPlaneFormats(_ fd: FileDescriptor, crtcIndex: Int) -> [UInt32] { planeFormats }

    func createDumb(_ fd: FileDescriptor, width: Int, height: Int, bitsPerPixel: Int)
        throws(SystemError)
        -> DumbBufferInfo
    {
        dumbs += 1
        try record("CREATE_DUMB \(width)x\(height)x\(bitsPerPixel)", "CREATE_DUMB")
        if dumbs == failCreateDumb {
            throw SystemError(errno: ENOMEM, call: "DRM_IOCTL_MODE_CREATE_DUMB")
        }
        let pitch = (width * bitsPerPixel / 8 + 63) / 64 * 64
        return DumbBufferInfo(
            handle: DumbHandle(rawValue: newID())!, pitch: pitch, size: pitch * height)
    }

    func mapDumb(_ fd: FileDescriptor, _ handle: DumbHandle) throws(SystemError) -> Int64 {
        try record("MAP_DUMB \(handle)", "MAP_DUMB")
        return Int64(handle.rawValue) << 12
    }

    func destroyDumb(_ fd: FileDescriptor, _ handle: DumbHandle) throws(SystemError) {
        try record("DESTROY_DUMB \(handle)", "DESTROY_DUMB")
    }

    func addFramebuffer(
        _ fd: FileDescriptor, width: Int, height: Int, fourcc: UInt32, handle: DumbHandle,
        pitch: Int
    ) throws(SystemError) -> FramebufferID {
        let id = newID()
        try record("AddFB2 \(id) handle \(handle) \(DeviceDiscovery.fourccName(fourcc))", "AddFB2")
        return FramebufferID(rawValue: id)!
    }

    func removeFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID) throws(SystemError) {
        try record("RmFB \(id)", "RmFB")
    }

    func closeFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID) throws(SystemError) {
        try record("CLOSEFB \(id)", "CLOSEFB")
    }

    func setCRTC(
        _ fd: FileDescriptor, _ crtc: CRTCID, framebuffer: FramebufferID?, x: UInt32, y: UInt32,
        connectors: [ConnectorID], mode: DisplayMode?
    ) throws(SystemError) {
        let fb = framebuffer.map(String.init(describing:)) ?? "none"
        let what = mode.map { "\($0.width)x\($0.height)" } ?? "off"
        try record("SetCrtc \(crtc) fb \(fb) \(what)", "SetCrtc")
        crtcStates[crtc] = CRTCState(
            id: crtc, framebuffer: mode == nil ? nil : framebuffer, x: x, y: y, mode: mode)
    }

    func hasVerticalBlank(_ fd: FileDescriptor, _ crtc: CRTCID) -> Bool { verticalBlank }

    func pageFlip(
        _ fd: FileDescriptor, _ crtc: CRTCID, to framebuffer: FramebufferID,
        pending: UnsafeMutablePointer<Bool>
    ) throws(SystemError) {
        try record("PageFlip \(crtc) fb \(framebuffer)", "PageFlip")
        self.pending.append(pending)
        // The new state is the CRTC's once the flip is queued (atomic helpers swap it in the ioctl).
        var state = crtcStates[crtc] ?? CRTCState(id: crtc, framebuffer: nil, x: 0, y: 0, mode: nil)
        state.framebuffer = framebuffer
        crtcStates[crtc] = state
    }

    func dirtyFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID, clips: [IntRect])
        throws(SystemError)
    {
        let list = clips.map { "\($0.x),\($0.y) \($0.width)x\($0.height)" }.joined(separator: "; ")
        try record("DirtyFB \(id) [\(list)]", "DirtyFB")
    }

    func handleEvents(_ fd: FileDescriptor) throws(SystemError) {
        try record("drmHandleEvent", "drmHandleEvent")
        for flag in pending { flag.pointee = false }
        pending.removeAll()
    }

    /// A card with one connected `name` connector of `width x height`, one
    /// encoder, and `crtcCount` CRTCs; the connector may use every CRTC.
    static func card(_ outputs: [(String, UInt32, Int, Int)], crtcCount: Int = 2) -> MockModeSetting
    {
        let system = MockSystemCalls()
        system.devices = ["/dev/dri/card0"]
        let kms = MockModeSetting(system: system)
        kms.capabilities[1] = 1  // DRM_CAP_DUMB_BUFFER
        kms.crtcs = (0..<crtcCount).map { CRTCID(rawValue: UInt32(40 + $0))! }
        for (i, (name, type, width, height)) in outputs.enumerated() {
            let encoder = EncoderID(rawValue: UInt32(30 + i))!
            kms.encoders.append(
                EncoderInfo(id: encoder, crtc: nil, possibleCRTCs: (1 << UInt32(crtcCount)) - 1))
            kms.connectors.append(
                ConnectorInfo(
                    id: ConnectorID(rawValue: UInt32(20 + i))!, name: name, type: type,
                    status: .connected,
                    modes: [.testMode(width: width, height: height)], encoders: [encoder],
                    currentEncoder: nil))
        }
        return kms
    }
}
