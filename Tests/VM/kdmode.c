/*
 * kdmode: prints the console mode of the active VT, "text" or "graphics"
 * (ioctl KDGETMODE on /dev/tty0), for the VM tests of fbanim.
 *
 *   kdmode                    print the mode now
 *   kdmode --wait-graphics S  first wait up to S seconds (fractional) for
 *                             KD_GRAPHICS, polling every 20 ms: one process
 *                             instead of a shell loop (spawns are slow in TCG)
 *
 * Exit status 0, or 1 when /dev/tty0 cannot be read (the mode printed is "error").
 */
#include <fcntl.h>
#include <linux/kd.h>
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

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--wait-graphics")) {
        double left = atof(argv[2]);
        struct timespec step = { 0, 20 * 1000 * 1000 };
        while (mode() != KD_GRAPHICS && left > 0) { nanosleep(&step, NULL); left -= 0.02; }
    }
    int m = mode();
    puts(m == KD_TEXT ? "text" : m == KD_GRAPHICS ? "graphics" : "error");
    return m < 0;
}
