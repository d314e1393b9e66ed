#define _GNU_SOURCE
#include "CFBLinux.h"

#include <drm.h>
#include <drm_fourcc.h>
#include <drm_mode.h>
#include <xf86drmMode.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

const unsigned long fbl_VT_GETMODE = VT_GETMODE;
const unsigned long fbl_VT_SETMODE = VT_SETMODE;
const unsigned long fbl_VT_RELDISP = VT_RELDISP;
const unsigned long fbl_VT_GETSTATE = VT_GETSTATE;
const int fbl_VT_AUTO = VT_AUTO;
const int fbl_VT_PROCESS = VT_PROCESS;
const int fbl_VT_ACKACQ = VT_ACKACQ;

const uint32_t fbl_FB_ACTIVATE_VBL = FB_ACTIVATE_VBL;
const uint32_t fbl_FB_TYPE_PACKED_PIXELS = FB_TYPE_PACKED_PIXELS;
const uint32_t fbl_FB_VISUAL_TRUECOLOR = FB_VISUAL_TRUECOLOR;
const uint32_t fbl_FB_VISUAL_DIRECTCOLOR = FB_VISUAL_DIRECTCOLOR;

const unsigned long fbl_TIOCGWINSZ = TIOCGWINSZ;

const unsigned long fbl_DRM_IOCTL_MODE_CLOSEFB = DRM_IOWR(0xD0, struct fbl_drm_mode_closefb);

_Static_assert(sizeof(struct fbl_ucred) == sizeof(struct ucred), "struct ucred layout");
_Static_assert(offsetof(struct fbl_ucred, uid) == offsetof(struct ucred, uid), "ucred.uid");
_Static_assert(offsetof(struct fbl_ucred, gid) == offsetof(struct ucred, gid), "ucred.gid");

static volatile sig_atomic_t fbl_signal_flags[65];

static volatile sig_atomic_t fbl_signal_pipe[2] = {-1, -1};

static void fbl_signal_handler(int sig) {
    if (sig > 0 && sig < 65) fbl_signal_flags[sig] = 1;
    int fd = fbl_signal_pipe[1];
    if (fd >= 0) {
        int saved = errno;  // a handler must not change errno under the code it interrupted
        char byte = (char)sig;
        ssize_t ignored = write(fd, &byte, 1);  // full pipe: a wake-up is pending anyway
        (void)ignored;
        errno = saved;
    }
}

int fbl_signal_wake_fd(void) {
    if (fbl_signal_pipe[0] >= 0) return fbl_signal_pipe[0];
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
    fbl_signal_pipe[0] = fds[0];
    fbl_signal_pipe[1] = fds[1];
    return fds[0];
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

static volatile sig_atomic_t fbl_guard_vt = -1;
static volatile sig_atomic_t fbl_guard_terminal = -1;
static const int fbl_crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
#define FBL_CRASH_SIGNALS (sizeof fbl_crash_signals / sizeof fbl_crash_signals[0])
// What was installed before (the Swift runtime's backtracer): it runs after us.
static struct sigaction fbl_previous[FBL_CRASH_SIGNALS];

static void fbl_crash_handler(int sig) {
    static const char show_cursor[] = "\033[?25h";
    static const char leave_preview[] = "\033[0m\033[?7h\033[?25h\033[?1049l";
    int vt = fbl_guard_vt;
    int term = fbl_guard_terminal;
    if (vt >= 0) {
        ioctl(vt, KDSETMODE, KD_TEXT);
        ssize_t ignored = write(vt, show_cursor, sizeof show_cursor - 1);
        (void)ignored;
    }
    if (term >= 0) {
        ssize_t ignored = write(term, leave_preview, sizeof leave_preview - 1);
        (void)ignored;
    }
    // Hand the signal on to what was there before (a backtrace, a core).
    for (unsigned i = 0; i < FBL_CRASH_SIGNALS; i++) {
        if (fbl_crash_signals[i] == sig) sigaction(sig, &fbl_previous[i], NULL);
    }
    raise(sig);
}

void fbl_crash_guard_install(void) {
    static int installed;
    if (installed) return;
    installed = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fbl_crash_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER;
    for (unsigned i = 0; i < FBL_CRASH_SIGNALS; i++) {
        sigaction(fbl_crash_signals[i], &action, &fbl_previous[i]);
    }
}

void fbl_crash_guard_vt(int fd) { fbl_guard_vt = fd; }
void fbl_crash_guard_terminal(int fd) { fbl_guard_terminal = fd; }
