#include "CFBLinux.h"

#include <drm.h>
#include <drm_fourcc.h>
#include <drm_mode.h>
#include <xf86drmMode.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>

const uint32_t fbl_DRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;
const uint32_t fbl_DRM_FORMAT_BGR565 = DRM_FORMAT_BGR565;
const uint32_t fbl_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
const uint32_t fbl_DRM_FORMAT_XBGR8888 = DRM_FORMAT_XBGR8888;
const uint32_t fbl_DRM_FORMAT_ARGB8888 = DRM_FORMAT_ARGB8888;
const uint32_t fbl_DRM_FORMAT_RGB888 = DRM_FORMAT_RGB888;

const unsigned long fbl_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
const unsigned long fbl_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
const unsigned long fbl_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;

const uint64_t fbl_DRM_CAP_DUMB_BUFFER = DRM_CAP_DUMB_BUFFER;
const uint64_t fbl_DRM_CAP_DUMB_PREFERRED_DEPTH = DRM_CAP_DUMB_PREFERRED_DEPTH;
const uint64_t fbl_DRM_CAP_DUMB_PREFER_SHADOW = DRM_CAP_DUMB_PREFER_SHADOW;
const uint64_t fbl_DRM_CLIENT_CAP_UNIVERSAL_PLANES = DRM_CLIENT_CAP_UNIVERSAL_PLANES;
const uint64_t fbl_DRM_PLANE_TYPE_PRIMARY = DRM_PLANE_TYPE_PRIMARY;
const uint32_t fbl_DRM_MODE_PAGE_FLIP_EVENT = DRM_MODE_PAGE_FLIP_EVENT;
const uint32_t fbl_DRM_MODE_TYPE_PREFERRED = DRM_MODE_TYPE_PREFERRED;

const unsigned long fbl_FBIOGET_VSCREENINFO = FBIOGET_VSCREENINFO;
const unsigned long fbl_FBIOGET_FSCREENINFO = FBIOGET_FSCREENINFO;
const unsigned long fbl_FBIOPAN_DISPLAY = FBIOPAN_DISPLAY;
const unsigned long fbl_FBIO_WAITFORVSYNC = FBIO_WAITFORVSYNC;

const unsigned long fbl_KDSETMODE = KDSETMODE;
const unsigned long fbl_KDGETMODE = KDGETMODE;
const int fbl_KD_TEXT = KD_TEXT;
const int fbl_KD_GRAPHICS = KD_GRAPHICS;

const uint32_t fbl_FB_ACTIVATE_VBL = FB_ACTIVATE_VBL;
const uint32_t fbl_FB_TYPE_PACKED_PIXELS = FB_TYPE_PACKED_PIXELS;
const uint32_t fbl_FB_VISUAL_TRUECOLOR = FB_VISUAL_TRUECOLOR;
const uint32_t fbl_FB_VISUAL_DIRECTCOLOR = FB_VISUAL_DIRECTCOLOR;

const unsigned long fbl_TIOCGWINSZ = TIOCGWINSZ;

static volatile sig_atomic_t fbl_signal_flags[65];

static void fbl_signal_handler(int sig) {
    if (sig > 0 && sig < 65) fbl_signal_flags[sig] = 1;
}

int fbl_signal_catch(int sig) {
    if (sig <= 0 || sig >= 65) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fbl_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: sleeps wake with EINTR
    return sigaction(sig, &action, NULL);
}

int fbl_signal_take(int sig) {
    if (sig <= 0 || sig >= 65 || !fbl_signal_flags[sig]) return 0;
    fbl_signal_flags[sig] = 0;
    return 1;
}
