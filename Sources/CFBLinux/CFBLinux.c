#include "CFBLinux.h"

#include <drm.h>
#include <drm_fourcc.h>
#include <drm_mode.h>
#include <linux/fb.h>
#include <linux/kd.h>

const uint32_t fbl_DRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;
const uint32_t fbl_DRM_FORMAT_BGR565 = DRM_FORMAT_BGR565;
const uint32_t fbl_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
const uint32_t fbl_DRM_FORMAT_XBGR8888 = DRM_FORMAT_XBGR8888;
const uint32_t fbl_DRM_FORMAT_ARGB8888 = DRM_FORMAT_ARGB8888;
const uint32_t fbl_DRM_FORMAT_RGB888 = DRM_FORMAT_RGB888;

const unsigned long fbl_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
const unsigned long fbl_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
const unsigned long fbl_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;

const unsigned long fbl_FBIOGET_VSCREENINFO = FBIOGET_VSCREENINFO;
const unsigned long fbl_FBIOGET_FSCREENINFO = FBIOGET_FSCREENINFO;
const unsigned long fbl_FBIOPAN_DISPLAY = FBIOPAN_DISPLAY;
const unsigned long fbl_FBIO_WAITFORVSYNC = FBIO_WAITFORVSYNC;

const unsigned long fbl_KDSETMODE = KDSETMODE;
const unsigned long fbl_KDGETMODE = KDGETMODE;
const int fbl_KD_TEXT = KD_TEXT;
const int fbl_KD_GRAPHICS = KD_GRAPHICS;
