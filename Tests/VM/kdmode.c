/*
 * kdmode: prints the console mode of the active VT, "text" or "graphics"
 * (ioctl KDGETMODE on /dev/tty0), for the VM tests of fbanim.
 *
 *   kdmode                    print the mode now
 *   kdmode --wait-graphics S  first wait up to S seconds (fractional) for
 *                             KD_GRAPHICS, polling every 20 ms: one process
 *                             instead of a shell loop (spawns are slow in TCG)
 *   kdmode --text             first switch the VT to KD_TEXT (KDSETMODE), as
 *                             systemd 256+ or a getty does; fbcon repaints
 *   kdmode --text --wait-graphics S --ms
 *                             switch to text, wait for someone (a splash) to
 *                             put the VT back into KD_GRAPHICS, and print on a
 *                             second line the milliseconds that took
 *
 *   kdmode --vt               also print, on a second line, the active VT's
 *                             number and switch mode: "vt 1 process" (a
 *                             program owns its switches, VT_PROCESS) or
 *                             "vt 2 auto" (VT_GETSTATE, VT_GETMODE)
 *
 *   kdmode --chvt N [--wait-graphics S]
 *                             first switch to VT N (VT_ACTIVATE) and wait
 *                             until it is shown (VT_WAITACTIVE), 20 s at most
 *                             (a VT whose owner never answers: "timeout",
 *                             exit 1); chvt(1) without the kbd package
 *
 * Exit status 0, or 1 when /dev/tty0 cannot be read or switched (the mode
 * printed is "error").
 */
#include <fcntl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int mode(void)
{
    int fd = open("/dev/tty0", O_RDONLY | O_NOCTTY | O_CLOEXEC), m = -1;
    if (fd < 0) return -1;
    if (ioctl(fd, KDGETMODE, &m) < 0) m = -1;
    close(fd);
    return m;
}

static int set_text(void)
{
    int fd = open("/dev/tty0", O_RDWR | O_NOCTTY | O_CLOEXEC), ok;
    if (fd < 0) return 0;
    ok = ioctl(fd, KDSETMODE, KD_TEXT) == 0;
    close(fd);
    return ok;
}

static void print_vt(void)
{
    struct vt_stat st;
    struct vt_mode vm;
    int fd = open("/dev/tty0", O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || ioctl(fd, VT_GETSTATE, &st) < 0 || ioctl(fd, VT_GETMODE, &vm) < 0) {
        puts("vt error");
    } else {
        printf("vt %d %s\n", st.v_active, vm.mode == VT_PROCESS ? "process" : vm.mode == VT_AUTO ? "auto" : "other");
    }
    if (fd >= 0) close(fd);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "timeout\n";
    ssize_t ignored = write(1, msg, sizeof msg - 1);
    (void)ignored;
    _exit(1);
}

static int chvt(int n)
{
    int fd = open("/dev/tty0", O_RDWR | O_NOCTTY | O_CLOEXEC), ok;
    if (fd < 0) return 0;
    signal(SIGALRM, on_alarm);
    alarm(20);
    ok = ioctl(fd, VT_ACTIVATE, n) == 0 && ioctl(fd, VT_WAITACTIVE, n) == 0;
    alarm(0);
    close(fd);
    return ok;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    double wait = -1, start;
    int text = 0, ms = 0, vt = 0, to = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--wait-graphics") && i + 1 < argc) wait = atof(argv[++i]);
        else if (!strcmp(argv[i], "--text")) text = 1;
        else if (!strcmp(argv[i], "--ms")) ms = 1;
        else if (!strcmp(argv[i], "--vt")) vt = 1;
        else if (!strcmp(argv[i], "--chvt") && i + 1 < argc) to = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: kdmode [--text] [--wait-graphics SECONDS] [--ms] [--vt] [--chvt N]\n");
            return 2;
        }
    }
    if (to > 0 && !chvt(to)) {
        puts("error");
        return 1;
    }
    if (text && !set_text()) {
        puts("error");
        return 1;
    }
    start = now();
    if (wait >= 0) {
        struct timespec step = { 0, 20 * 1000 * 1000 };
        while (mode() != KD_GRAPHICS && now() - start < wait) nanosleep(&step, NULL);
    }
    int m = mode();
    puts(m == KD_TEXT ? "text" : m == KD_GRAPHICS ? "graphics" : "error");
    if (ms) printf("%.0f\n", (now() - start) * 1000);
    if (vt) print_vt();
    return m < 0;
}
