import CDRM
import CFBLinux
import FBBoot
import FBRaster
import Glibc

/// `ModeSetting` through libdrm.
package final class LibDRM: ModeSetting {
    nonisolated(unsafe) package static let shared = LibDRM()
    package init() {}

    package func driver(_ fd: FileDescriptor) throws(SystemError) -> (
        name: String, description: String
    ) {
        Glibc.errno = 0
        guard let version = drmGetVersion(fd.rawValue) else {
            throw libdrmNullError("drmGetVersion")
        }
        defer { drmFreeVersion(version) }
        func text(_ p: UnsafeMutablePointer<CChar>?) -> String {
            p.map { String(cString: $0) } ?? ""
        }
        return (text(version.pointee.name), text(version.pointee.desc))
    }

    package func capability(_ fd: FileDescriptor, _ capability: UInt64) -> UInt64? {
        var value: UInt64 = 0
        return drmGetCap(fd.rawValue, capability, &value) == 0 ? value : nil
    }

    package func becomeMaster(_ fd: FileDescriptor) throws(SystemError) {
        _ = try libdrmCall("drmSetMaster") { drmSetMaster(fd.rawValue) }
    }

    package func dropMaster(_ fd: FileDescriptor) { _ = drmDropMaster(fd.rawValue) }

    package func resources(_ fd: FileDescriptor) throws(SystemError) -> CardResources {
        Glibc.errno = 0
        guard let r = drmModeGetResources(fd.rawValue) else {
            throw libdrmNullError("drmModeGetResources")
        }
        defer { drmModeFreeResources(r) }
        let res = r.pointee
        return CardResources(
            connectors: ids(res.connectors, res.count_connectors),
            encoders: ids(res.encoders, res.count_encoders), crtcs: ids(res.crtcs, res.count_crtcs))
    }

    package func connector(_ fd: FileDescriptor, _ id: ConnectorID) throws(SystemError)
        -> ConnectorInfo
    {
        Glibc.errno = 0
        guard let c = drmModeGetConnector(fd.rawValue, id.rawValue) else {
            throw libdrmNullError("drmModeGetConnector")
        }
        defer { drmModeFreeConnector(c) }
        let con = c.pointee
        let typeName =
            drmModeGetConnectorTypeName(con.connector_type).map { String(cString: $0) } ?? "Unknown"
        let status: ConnectionStatus =
            switch con.connection {
            case DRM_MODE_CONNECTED: .connected
            case DRM_MODE_DISCONNECTED: .disconnected
            default: .unknown
            }
        let modes = (0..<Int(max(con.count_modes, 0))).map { DisplayMode(con.modes[$0]) }
        return ConnectorInfo(
            id: id, name: "\(typeName)-\(con.connector_type_id)", type: con.connector_type,
            status: status, modes: modes, encoders: ids(con.encoders, con.count_encoders),
            currentEncoder: EncoderID(rawValue: con.encoder_id),
            panelOrientation: propertyValue(
                fd, id.rawValue, UInt32(DRM_MODE_OBJECT_CONNECTOR), "panel orientation"
            )
            .flatMap(PanelOrientation.init(rawValue:)))
    }

    package func encoder(_ fd: FileDescriptor, _ id: EncoderID) throws(SystemError) -> EncoderInfo {
        Glibc.errno = 0
        guard let e = drmModeGetEncoder(fd.rawValue, id.rawValue) else {
            throw libdrmNullError("drmModeGetEncoder")
        }
        defer { drmModeFreeEncoder(e) }
        return EncoderInfo(
            id: id, crtc: CRTCID(rawValue: e.pointee.crtc_id),
            possibleCRTCs: e.pointee.possible_crtcs)
    }

    package func crtc(_ fd: FileDescriptor, _ id: CRTCID) throws(SystemError) -> CRTCState {
        Glibc.errno = 0
        guard let c = drmModeGetCrtc(fd.rawValue, id.rawValue) else {
            throw libdrmNullError("drmModeGetCrtc")
        }
        defer { drmModeFreeCrtc(c) }
        let s = c.pointee
        return CRTCState(
            id: id, framebuffer: FramebufferID(rawValue: s.buffer_id), x: s.x, y: s.y,
            mode: s.mode_valid != 0 ? DisplayMode(s.mode) : nil)
    }

    package func primaryPlaneFormats(_ fd: FileDescriptor, crtcIndex: Int) -> [UInt32] {
        // Without this client cap the kernel hides primary and cursor planes.
        guard drmSetClientCap(fd.rawValue, fbl_DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) == 0,
            let planes = drmModeGetPlaneResources(fd.rawValue)
        else { return [] }
        defer { drmModeFreePlaneResources(planes) }
        for i in 0..<Int(planes.pointee.count_planes) {
            let planeID = planes.pointee.planes[i]
            guard let plane = drmModeGetPlane(fd.rawValue, planeID) else { continue }
            defer { drmModeFreePlane(plane) }
            guard plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0,
                planeType(fd, planeID) == fbl_DRM_PLANE_TYPE_PRIMARY
            else { continue }
            return (0..<Int(plane.pointee.count_formats)).map { plane.pointee.formats[$0] }
        }
        return []
    }

    /// The plane's `type` property (`DRM_PLANE_TYPE_*`), or `nil`.
    private func planeType(_ fd: FileDescriptor, _ plane: UInt32) -> UInt64? {
        propertyValue(fd, plane, UInt32(DRM_MODE_OBJECT_PLANE), "type")
    }

    /// The value of the property called `name` of a KMS object
    /// (`drmModeObjectGetProperties`, then `drmModeGetProperty` for each
    /// name), or `nil` when the object has none (an enum property's value
    /// is the enum's value, as "panel orientation"'s 0 to 3).
    private func propertyValue(
        _ fd: FileDescriptor, _ object: UInt32, _ type: UInt32, _ name: String
    ) -> UInt64? {
        guard let props = drmModeObjectGetProperties(fd.rawValue, object, type)
        else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd.rawValue, props.pointee.props[i]) else {
                continue
            }
            defer { drmModeFreeProperty(prop) }
            if cString(prop.pointee.name) == name { return props.pointee.prop_values[i] }
        }
        return nil
    }

    package func createDumb(_ fd: FileDescriptor, width: Int, height: Int, bitsPerPixel: Int)
        throws(SystemError) -> DumbBufferInfo
    {
        var request = drm_mode_create_dumb()
        request.width = UInt32(width)
        request.height = UInt32(height)
        request.bpp = UInt32(bitsPerPixel)
        _ = try libdrmCall("DRM_IOCTL_MODE_CREATE_DUMB") {
            drmIoctl(fd.rawValue, fbl_DRM_IOCTL_MODE_CREATE_DUMB, &request)
        }
        guard let handle = DumbHandle(rawValue: request.handle) else {
            throw SystemError(errno: EIO, call: "DRM_IOCTL_MODE_CREATE_DUMB")
        }
        return DumbBufferInfo(handle: handle, pitch: Int(request.pitch), size: Int(request.size))
    }

    package func mapDumb(_ fd: FileDescriptor, _ handle: DumbHandle) throws(SystemError) -> Int64 {
        var request = drm_mode_map_dumb()
        request.handle = handle.rawValue
        _ = try libdrmCall("DRM_IOCTL_MODE_MAP_DUMB") {
            drmIoctl(fd.rawValue, fbl_DRM_IOCTL_MODE_MAP_DUMB, &request)
        }
        return Int64(bitPattern: request.offset)
    }

    package func destroyDumb(_ fd: FileDescriptor, _ handle: DumbHandle) throws(SystemError) {
        var request = drm_mode_destroy_dumb()
        request.handle = handle.rawValue
        _ = try libdrmCall("DRM_IOCTL_MODE_DESTROY_DUMB") {
            drmIoctl(fd.rawValue, fbl_DRM_IOCTL_MODE_DESTROY_DUMB, &request)
        }
    }

    package func addFramebuffer(
        _ fd: FileDescriptor, width: Int, height: Int, fourcc: UInt32, handle: DumbHandle,
        pitch: Int
    ) throws(SystemError) -> FramebufferID {
        let handles: [UInt32] = [handle.rawValue, 0, 0, 0]
        let pitches: [UInt32] = [UInt32(pitch), 0, 0, 0]
        let offsets: [UInt32] = [0, 0, 0, 0]
        var id: UInt32 = 0
        _ = try libdrmCall("drmModeAddFB2") {
            drmModeAddFB2(
                fd.rawValue, UInt32(width), UInt32(height), fourcc, handles, pitches, offsets, &id,
                0)
        }
        guard let fb = FramebufferID(rawValue: id) else {
            throw SystemError(errno: EIO, call: "drmModeAddFB2")
        }
        return fb
    }

    package func removeFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID) throws(SystemError) {
        _ = try libdrmCall("drmModeRmFB") { drmModeRmFB(fd.rawValue, id.rawValue) }
    }

    package func closeFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID) throws(SystemError) {
        var request = fbl_drm_mode_closefb(fb_id: id.rawValue, pad: 0)
        _ = try libdrmCall("DRM_IOCTL_MODE_CLOSEFB") {
            drmIoctl(fd.rawValue, fbl_DRM_IOCTL_MODE_CLOSEFB, &request)
        }
    }

    package func setCRTC(
        _ fd: FileDescriptor, _ crtc: CRTCID, framebuffer: FramebufferID?, x: UInt32, y: UInt32,
        connectors: [ConnectorID], mode: DisplayMode?
    ) throws(SystemError) {
        var ids = mode == nil ? [] : connectors.map(\.rawValue)
        var info = mode?.info ?? drmModeModeInfo()
        let hasMode = mode != nil
        _ = try libdrmCall("drmModeSetCrtc") {
            ids.withUnsafeMutableBufferPointer { list in
                withUnsafeMutablePointer(to: &info) { modePointer in
                    drmModeSetCrtc(
                        fd.rawValue, crtc.rawValue, framebuffer?.rawValue ?? 0, x, y,
                        list.baseAddress, Int32(list.count), hasMode ? modePointer : nil)
                }
            }
        }
    }

    package func pageFlip(
        _ fd: FileDescriptor, _ crtc: CRTCID, to framebuffer: FramebufferID,
        pending: UnsafeMutablePointer<Bool>
    ) throws(SystemError) {
        _ = try libdrmCall("drmModePageFlip") {
            drmModePageFlip(
                fd.rawValue, crtc.rawValue, framebuffer.rawValue, fbl_DRM_MODE_PAGE_FLIP_EVENT,
                UnsafeMutableRawPointer(pending))
        }
    }

    package func dirtyFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID, clips: [IntRect])
        throws(SystemError)
    {
        // A temporary buffer (on the stack for a frame's few rectangles): a
        // steady present allocates nothing.
        _ = try withUnsafeTemporaryAllocation(of: drmModeClip.self, capacity: clips.count) {
            list throws(SystemError) in
            for (i, r) in clips.enumerated() {
                list.initializeElement(
                    at: i,
                    to: drmModeClip(
                        x1: UInt16(clamping: r.x), y1: UInt16(clamping: r.y),
                        x2: UInt16(clamping: r.maxX), y2: UInt16(clamping: r.maxY)))
            }
            return try libdrmCall("drmModeDirtyFB") {
                drmModeDirtyFB(
                    fd.rawValue, id.rawValue, list.count > 0 ? list.baseAddress : nil,
                    UInt32(list.count))
            }
        }
    }

    package func handleEvents(_ fd: FileDescriptor) throws(SystemError) {
        var context = drmEventContext()
        context.version = 2
        // A C function: it may not capture, so the event's user data carries the flag to clear.
        context.page_flip_handler = { _, _, _, _, userData in
            userData?.assumingMemoryBound(to: Bool.self).pointee = false
        }
        _ = try libdrmCall("drmHandleEvent") { drmHandleEvent(fd.rawValue, &context) }
    }

    package func hasVerticalBlank(_ fd: FileDescriptor, _ crtc: CRTCID) -> Bool {
        var sequence: UInt64 = 0
        var nanoseconds: UInt64 = 0
        do throws(SystemError) {
            _ = try libdrmCall("drmCrtcGetSequence") {
                drmCrtcGetSequence(fd.rawValue, crtc.rawValue, &sequence, &nanoseconds)
            }
            return true
        } catch {
            return error.errno != EOPNOTSUPP
        }
    }

    private func ids<ID: KernelObjectID>(_ list: UnsafeMutablePointer<UInt32>?, _ count: Int32)
        -> [ID]
    {
        guard let list, count > 0 else { return [] }
        return (0..<Int(count)).compactMap { ID(rawValue: list[$0]) }
    }
}
