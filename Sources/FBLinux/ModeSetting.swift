import FBRaster

/// The DRM/KMS calls the DRM backend makes, one method each (libdrm in real
/// life, a recording mock in tests). Every failure is a `SystemError` from
/// the `libdrmCall` funnel.
package protocol ModeSetting: AnyObject {
    /// `drmGetVersion`: the driver's name and description; throws on a non-DRM file.
    func driver(_ fd: FileDescriptor) throws(SystemError) -> (name: String, description: String)
    /// `drmGetCap`; `nil` when the kernel does not know the capability.
    func capability(_ fd: FileDescriptor, _ capability: UInt64) -> UInt64?
    /// `drmSetMaster`: `EBUSY` (or `EACCES` for a user) while another program is master.
    func becomeMaster(_ fd: FileDescriptor) throws(SystemError)
    /// `drmDropMaster`.
    func dropMaster(_ fd: FileDescriptor)
    /// `drmModeGetResources`.
    func resources(_ fd: FileDescriptor) throws(SystemError) -> CardResources
    /// `drmModeGetConnector` (probes the connector: may take a moment).
    func connector(_ fd: FileDescriptor, _ id: ConnectorID) throws(SystemError) -> ConnectorInfo
    /// `drmModeGetEncoder`.
    func encoder(_ fd: FileDescriptor, _ id: EncoderID) throws(SystemError) -> EncoderInfo
    /// `drmModeGetCrtc`.
    func crtc(_ fd: FileDescriptor, _ id: CRTCID) throws(SystemError) -> CRTCState
    /// Fourccs of the primary plane that can feed the CRTC with index
    /// `crtcIndex`; empty when the kernel does not say (`drmModeGetPlaneResources`).
    func primaryPlaneFormats(_ fd: FileDescriptor, crtcIndex: Int) -> [UInt32]
    /// `DRM_IOCTL_MODE_CREATE_DUMB`.
    func createDumb(_ fd: FileDescriptor, width: Int, height: Int, bitsPerPixel: Int)
        throws(SystemError) -> DumbBufferInfo
    /// `DRM_IOCTL_MODE_MAP_DUMB`: the offset to `mmap` the buffer at.
    func mapDumb(_ fd: FileDescriptor, _ handle: DumbHandle) throws(SystemError) -> Int64
    /// `DRM_IOCTL_MODE_DESTROY_DUMB`.
    func destroyDumb(_ fd: FileDescriptor, _ handle: DumbHandle) throws(SystemError)
    /// `drmModeAddFB2` with one plane.
    func addFramebuffer(
        _ fd: FileDescriptor, width: Int, height: Int, fourcc: UInt32, handle: DumbHandle,
        pitch: Int
    ) throws(SystemError) -> FramebufferID
    /// `drmModeRmFB`.
    func removeFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID) throws(SystemError)
    /// `DRM_IOCTL_MODE_CLOSEFB` (Linux 6.8): removes the framebuffer object
    /// but leaves the planes that show it showing it; `ENOTTY`/`EINVAL` on
    /// older kernels.
    func closeFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID) throws(SystemError)
    /// `drmModeSetCrtc`; `framebuffer == nil` and `mode == nil` turn the CRTC off.
    func setCRTC(
        _ fd: FileDescriptor, _ crtc: CRTCID, framebuffer: FramebufferID?, x: UInt32, y: UInt32,
        connectors: [ConnectorID], mode: DisplayMode?) throws(SystemError)
    /// `drmModePageFlip` with `DRM_MODE_PAGE_FLIP_EVENT`; the event's handler
    /// sets the `Bool` at `pending` to `false`.
    func pageFlip(
        _ fd: FileDescriptor, _ crtc: CRTCID, to framebuffer: FramebufferID,
        pending: UnsafeMutablePointer<Bool>) throws(SystemError)
    /// `drmModeDirtyFB` with the rectangles as clips (none: all of it).
    func dirtyFramebuffer(_ fd: FileDescriptor, _ id: FramebufferID, clips: [IntRect])
        throws(SystemError)
    /// `drmHandleEvent`: reads the pending events and runs their handlers.
    func handleEvents(_ fd: FileDescriptor) throws(SystemError)
    /// Whether the device counts vertical blanks (`drmCrtcGetSequence`):
    /// `false` only when the kernel answers `EOPNOTSUPP` (no vblank support
    /// at all: bochs, cirrus, virtio-gpu, SPI panels); any other answer
    /// (a count, a CRTC that is off, an older kernel) is taken as `true`.
    func hasVerticalBlank(_ fd: FileDescriptor, _ crtc: CRTCID) -> Bool
}
