import CFBLinux
import FBRaster
import Testing

/// Pins every constant of the C shim (`CFBLinux.h`) to its value in the
/// kernel ABI, written out by hand here rather than taken from a header.
///
/// Request numbers built with `_IOC(dir, type, nr, size)` (asm-generic/ioctl.h,
/// which x86, arm and arm64 use) are `dir << 30 | size << 16 | type << 8 | nr`
/// with `_IOC_WRITE = 1`, `_IOC_READ = 2`, so `_IOWR` has dir 3 (`0xC...`)
/// and `_IOW` dir 1 (`0x4...`).
@Suite struct KernelConstantsTests {
    /// `fourcc_code(a, b, c, d) = a | b << 8 | c << 16 | d << 24` (drm_fourcc.h).
    @Test func drmFourccs() {
        #expect(fbl_DRM_FORMAT_RGB565 == 0x3631_4752)  // 'R' 'G' '1' '6'
        #expect(fbl_DRM_FORMAT_BGR565 == 0x3631_4742)  // 'B' 'G' '1' '6'
        #expect(fbl_DRM_FORMAT_XRGB8888 == 0x3432_5258)  // 'X' 'R' '2' '4'
        #expect(fbl_DRM_FORMAT_XBGR8888 == 0x3432_4258)  // 'X' 'B' '2' '4'
        #expect(fbl_DRM_FORMAT_ARGB8888 == 0x3432_5241)  // 'A' 'R' '2' '4'
        #expect(fbl_DRM_FORMAT_RGB888 == 0x3432_4752)  // 'R' 'G' '2' '4'
    }

    /// `DRM_IOWR(nr, type) = _IOWR('d' = 0x64, nr, type)` (drm.h).
    @Test func drmDumbBufferRequests() {
        // struct drm_mode_create_dumb: six __u32 + one __u64 = 32 = 0x20 bytes, nr 0xB2.
        #expect(fbl_DRM_IOCTL_MODE_CREATE_DUMB == 0xC020_64B2)
        // struct drm_mode_map_dumb: __u32 handle, __u32 pad, __u64 offset = 16 = 0x10, nr 0xB3.
        #expect(fbl_DRM_IOCTL_MODE_MAP_DUMB == 0xC010_64B3)
        // struct drm_mode_destroy_dumb: __u32 handle = 4 bytes, nr 0xB4.
        #expect(fbl_DRM_IOCTL_MODE_DESTROY_DUMB == 0xC004_64B4)
    }

    /// linux/fb.h: the old requests are plain numbers from 0x4600 ('F' << 8).
    @Test func fbdevRequests() {
        #expect(fbl_FBIOGET_VSCREENINFO == 0x4600)
        #expect(fbl_FBIOGET_FSCREENINFO == 0x4602)
        #expect(fbl_FBIOPAN_DISPLAY == 0x4606)
        // _IOW('F', 0x20, __u32): 1 << 30 | 4 << 16 | 0x46 << 8 | 0x20.
        #expect(fbl_FBIO_WAITFORVSYNC == 0x4004_4620)
    }

    /// drm.h capabilities, xf86drmMode.h's plane type, drm_mode.h flags.
    @Test func drmCapabilitiesAndFlags() {
        #expect(fbl_DRM_CAP_DUMB_BUFFER == 0x1)
        #expect(fbl_DRM_CAP_DUMB_PREFERRED_DEPTH == 0x3)
        #expect(fbl_DRM_CAP_DUMB_PREFER_SHADOW == 0x4)
        #expect(fbl_DRM_CLIENT_CAP_UNIVERSAL_PLANES == 2)
        #expect(fbl_DRM_PLANE_TYPE_PRIMARY == 1)
        #expect(fbl_DRM_MODE_PAGE_FLIP_EVENT == 0x01)
        #expect(fbl_DRM_MODE_TYPE_PREFERRED == 1 << 3)
    }

    /// linux/fb.h: panning on the vertical blank, packed true-colour pixels.
    @Test func fbdevConstants() {
        #expect(fbl_FB_ACTIVATE_VBL == 16)
        #expect(fbl_FB_TYPE_PACKED_PIXELS == 0)
        #expect(fbl_FB_VISUAL_TRUECOLOR == 2)
        #expect(fbl_FB_VISUAL_DIRECTCOLOR == 4)
    }

    /// linux/kd.h: plain numbers from 0x4B00 ('K' << 8).
    @Test func consoleRequests() {
        #expect(fbl_KDSETMODE == 0x4B3A)
        #expect(fbl_KDGETMODE == 0x4B3B)
        #expect(fbl_KD_TEXT == 0)
        #expect(fbl_KD_GRAPHICS == 1)
        #expect(fbl_VT_GETMODE == 0x5601)
        #expect(fbl_VT_SETMODE == 0x5602)
        #expect(fbl_VT_GETSTATE == 0x5603)
        #expect(fbl_VT_RELDISP == 0x5605)
        #expect(fbl_VT_AUTO == 0)
        #expect(fbl_VT_PROCESS == 1)
        #expect(fbl_VT_ACKACQ == 2)
    }

    /// asm-generic/ioctls.h (x86, arm, arm64, riscv): a plain number from 0x5400 ('T' << 8).
    @Test func terminalRequests() {
        #expect(fbl_TIOCGWINSZ == 0x5413)
    }

    /// The rasterizer spells fourccs itself (it cannot import C); both must agree.
    @Test(arguments: PixelFormat.allCases)
    func pixelFormatFourccMatchesTheShim(_ format: PixelFormat) {
        let shim: UInt32
        switch format {
        case .rgb565: shim = fbl_DRM_FORMAT_RGB565
        case .bgr565: shim = fbl_DRM_FORMAT_BGR565
        case .xrgb8888: shim = fbl_DRM_FORMAT_XRGB8888
        case .xbgr8888: shim = fbl_DRM_FORMAT_XBGR8888
        case .argb8888: shim = fbl_DRM_FORMAT_ARGB8888
        case .rgb888: shim = fbl_DRM_FORMAT_RGB888
        }
        #expect(format.fourcc == shim, "\(format.name)")
    }
}
