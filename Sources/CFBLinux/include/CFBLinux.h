// CFBLinux: names that Swift cannot import from the kernel and libdrm
// headers (function-like macros such as fourcc_code() and _IOWR()),
// re-exported as constants with an `fbl_` prefix. Names only, no logic.
// Each value is pinned to its C value by Tests/FBLinuxTests.
#ifndef CFBLINUX_H
#define CFBLINUX_H

#include <stdint.h>

// DRM fourccs (drm_fourcc.h), one per pixel format fbanim draws.
extern const uint32_t fbl_DRM_FORMAT_RGB565;
extern const uint32_t fbl_DRM_FORMAT_BGR565;
extern const uint32_t fbl_DRM_FORMAT_XRGB8888;
extern const uint32_t fbl_DRM_FORMAT_XBGR8888;
extern const uint32_t fbl_DRM_FORMAT_ARGB8888;
extern const uint32_t fbl_DRM_FORMAT_RGB888;

// DRM ioctl request numbers (drm.h, drm_mode.h).
extern const unsigned long fbl_DRM_IOCTL_MODE_CREATE_DUMB;
extern const unsigned long fbl_DRM_IOCTL_MODE_MAP_DUMB;
extern const unsigned long fbl_DRM_IOCTL_MODE_DESTROY_DUMB;

// fbdev ioctl request numbers (linux/fb.h).
extern const unsigned long fbl_FBIOGET_VSCREENINFO;
extern const unsigned long fbl_FBIOGET_FSCREENINFO;
extern const unsigned long fbl_FBIOPAN_DISPLAY;
extern const unsigned long fbl_FBIO_WAITFORVSYNC;

// Console ioctls (linux/kd.h).
extern const unsigned long fbl_KDSETMODE;
extern const unsigned long fbl_KDGETMODE;
extern const int fbl_KD_TEXT;
extern const int fbl_KD_GRAPHICS;

#endif
