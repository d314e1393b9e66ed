/*
 * steal-master PID SECONDS: takes DRM master away from process PID behind
 * its back, as no well-behaved program can (the kernel refuses
 * DRM_IOCTL_SET_MASTER while another file is master), shows its own
 * picture for SECONDS and exits (which frees master), for the VM test of a
 * splash that must notice it lost master, wait, and take the display back.
 *
 * For each of PID's descriptors open on /dev/dri/card*, a duplicate is
 * taken with pidfd_getfd(2) (Linux 5.6; root) and DRM_IOCTL_DROP_MASTER is
 * called on it: it is the same open file, so PID is master no more, and
 * learns it only when the kernel refuses its next page flip or mode set.
 * At once (the splash cannot win the race: it asks again a second later)
 * this process opens the card, becomes master and shows fbdrm-test's
 * picture (left half #FF0000, right half #0000FF) on the first connected
 * connector, prints "READY" and holds it.
 *
 * Exit 1 when no master was dropped or the picture could not be shown.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define FAIL(...) do { fprintf(stderr, "steal-master: " __VA_ARGS__); fputc('\n', stderr); return 1; } while (0)

static int show(const char *card)
{
    int fd = open(card, O_RDWR | O_CLOEXEC);
    if (fd < 0) FAIL("open %s: %s", card, strerror(errno));
    if (drmSetMaster(fd) < 0) FAIL("drmSetMaster: %s", strerror(errno));
    printf("master of %s\n", card);
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) FAIL("drmModeGetResources: %s", strerror(errno));
    drmModeConnector *conn = NULL;
    for (int i = 0; i < res->count_connectors && !conn; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) conn = c;
        else drmModeFreeConnector(c);
    }
    if (!conn || res->count_crtcs < 1) FAIL("no connected connector");
    drmModeModeInfo mode = conn->modes[0];
    for (int i = 0; i < conn->count_modes; i++)
        if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) { mode = conn->modes[i]; break; }
    uint32_t crtc = res->crtcs[0];
    drmModeEncoder *enc = conn->encoder_id ? drmModeGetEncoder(fd, conn->encoder_id) : NULL;
    if (enc && enc->crtc_id) crtc = enc->crtc_id;
    struct drm_mode_create_dumb create = { .width = mode.hdisplay, .height = mode.vdisplay, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) < 0) FAIL("CREATE_DUMB: %s", strerror(errno));
    uint32_t fb;
    if (drmModeAddFB(fd, mode.hdisplay, mode.vdisplay, 24, 32, create.pitch, create.handle, &fb) < 0)
        FAIL("AddFB: %s", strerror(errno));
    struct drm_mode_map_dumb map = { .handle = create.handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map) < 0) FAIL("MAP_DUMB: %s", strerror(errno));
    uint8_t *px = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (px == MAP_FAILED) FAIL("mmap: %s", strerror(errno));
    for (uint32_t y = 0; y < mode.vdisplay; y++) {
        uint32_t *row = (uint32_t *)(px + y * create.pitch);
        for (uint32_t x = 0; x < mode.hdisplay; x++) row[x] = x < mode.hdisplay / 2 ? 0xFF0000 : 0x0000FF;
    }
    if (drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn->connector_id, 1, &mode) < 0)
        FAIL("SetCrtc: %s", strerror(errno));
    printf("READY %ux%u\n", mode.hdisplay, mode.vdisplay);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: steal-master PID SECONDS\n");
        return 2;
    }
    int pid = atoi(argv[1]), dropped = 0;
    double hold = atof(argv[2]);
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) FAIL("pidfd_open %d: %s", pid, strerror(errno));
    char dir[64], path[512], target[256], card[256] = "";
    snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
    DIR *d = opendir(dir);
    if (!d) FAIL("opendir %s: %s", dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n < 0) continue;
        target[n] = 0;
        if (strncmp(target, "/dev/dri/card", 13)) continue;
        int fd = (int)syscall(SYS_pidfd_getfd, pidfd, atoi(e->d_name), 0);
        if (fd < 0) {
            fprintf(stderr, "steal-master: pidfd_getfd %s: %s\n", e->d_name, strerror(errno));
            continue;
        }
        if (ioctl(fd, DRM_IOCTL_DROP_MASTER, 0) == 0) {
            printf("dropped master of %d fd %s (%s)\n", pid, e->d_name, target);
            snprintf(card, sizeof card, "%s", target);
            dropped++;
        } else {
            fprintf(stderr, "steal-master: DROP_MASTER on fd %s: %s\n", e->d_name, strerror(errno));
        }
        close(fd);
    }
    closedir(d);
    if (!dropped) FAIL("%d held no DRM master", pid);
    if (show(card)) return 1;
    struct timespec ts = { (time_t)hold, (long)((hold - (time_t)hold) * 1e9) };
    nanosleep(&ts, NULL);
    printf("released\n");
    return 0;
}
