// CFBLinux: names that Swift cannot import from the kernel and libdrm
// headers (function-like macros such as fourcc_code() and _IOWR()),
// re-exported as constants with an `fbl_` prefix. Names, and only the C
// that signal handlers need (a flag setter and the crash guard): no other logic.
// Each value is pinned to its C value by Tests/FBLinuxTests.
#ifndef CFBLINUX_H
#define CFBLINUX_H

#include <stdint.h>

// The kernel's fbdev and console structs (fb_var_screeninfo,
// fb_fix_screeninfo, fb_bitfield) and plain-number constants
// (FB_TYPE_PACKED_PIXELS, FB_ACTIVATE_VBL...) import from these as they are.
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>

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

// DRM capabilities fbanim asks for (drm.h), and the primary plane type.
extern const uint64_t fbl_DRM_CAP_DUMB_BUFFER;
extern const uint64_t fbl_DRM_CAP_DUMB_PREFERRED_DEPTH;
extern const uint64_t fbl_DRM_CAP_DUMB_PREFER_SHADOW;
extern const uint64_t fbl_DRM_CLIENT_CAP_UNIVERSAL_PLANES;
extern const uint64_t fbl_DRM_PLANE_TYPE_PRIMARY;
extern const uint32_t fbl_DRM_MODE_PAGE_FLIP_EVENT;
extern const uint32_t fbl_DRM_MODE_TYPE_PREFERRED;

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

// VT switching ioctls (linux/vt.h): a process that owns its VT's switches
// (VT_PROCESS) is signalled and answers with VT_RELDISP.
extern const unsigned long fbl_VT_GETMODE;
extern const unsigned long fbl_VT_SETMODE;
extern const unsigned long fbl_VT_RELDISP;
extern const unsigned long fbl_VT_GETSTATE;
extern const int fbl_VT_AUTO;
extern const int fbl_VT_PROCESS;
extern const int fbl_VT_ACKACQ;

// fbdev constants for panning (linux/fb.h).
extern const uint32_t fbl_FB_ACTIVATE_VBL;
extern const uint32_t fbl_FB_TYPE_PACKED_PIXELS;
extern const uint32_t fbl_FB_VISUAL_TRUECOLOR;
extern const uint32_t fbl_FB_VISUAL_DIRECTCOLOR;

// Signals as flags. A handler that only sets a
// `volatile sig_atomic_t`, as async-signal-safety demands (Swift code must
// not run inside a handler). Installed without SA_RESTART, so a blocking
// call such as clock_nanosleep returns EINTR and the main loop looks at the
// flags at once.
/// Routes `sig` to a flag; returns 0, or -1 with errno (sigaction's).
int fbl_signal_catch(int sig);
/// Returns 1 if `sig` arrived since the last call (and clears it), else 0.
int fbl_signal_take(int sig);
/// The read end of a non-blocking pipe the handler writes one byte to for
/// every caught signal (the self-pipe trick: a poll() that includes it
/// wakes even when the signal came just before the poll began). Made on
/// the first call; -1 with errno if it cannot be made.
int fbl_signal_wake_fd(void);

// Crash guard. If fbanim dies on a fault (a trap, SIGSEGV, SIGBUS, abort),
// the handler puts the VT back in KD_TEXT with its cursor shown and leaves
// the terminal's alternate screen, using only async-signal-safe calls
// (ioctl, write), then dies of the same signal. Swift code cannot run in a
// signal handler, so this is C.
/// Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP.
void fbl_crash_guard_install(void);
/// The VT in graphics mode to restore on a crash, or -1 for none.
void fbl_crash_guard_vt(int fd);
/// The terminal showing a preview to restore on a crash, or -1 for none.
void fbl_crash_guard_terminal(int fd);

// Start-up before the kernel's random pool is ready (entropy.c): a
// constructor tells the Swift runtime not to wait for it.
/// 1 if this run's hashing seed is fixed because the pool was not ready at
/// start-up (and takes SWIFT_DETERMINISTIC_HASHING, set for the runtime,
/// out of the environment again); else 0. Call it once, early in main.
int fbl_hashing_fixed_for_start(void);

// DRM_IOCTL_MODE_CLOSEFB (Linux 6.8, drm_mode.h; newer than the libdrm
// headers here): removes a framebuffer object without turning off the
// planes that show it, for a flicker-free hand-over.
struct fbl_drm_mode_closefb {
    uint32_t fb_id;
    uint32_t pad;
};
extern const unsigned long fbl_DRM_IOCTL_MODE_CLOSEFB;

// A socket peer's credentials, as SO_PEERCRED fills them: struct ucred,
// which Swift cannot import (it needs _GNU_SOURCE). Same layout (checked
// by a static assertion in CFBLinux.c).
struct fbl_ucred {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
};

// Terminal ioctls (asm-generic/ioctls.h).
extern const unsigned long fbl_TIOCGWINSZ;

#endif
