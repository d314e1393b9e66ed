/*
 * dumploop: takes screendumps of the VM's monitor one after the other, from
 * inside the guest, through vm-run.sh's request protocol (write "FILE\n" to
 * $VMRUN_DIR/req.<unique>, wait for req.<unique>.done, whose first line is
 * "ok" or an error), for the boot-splash tests (Tests/VM/boot.sh).
 *
 *   dumploop PREFIX INTERVAL_MS STOPFILE [MAX]
 *
 * Asks for PREFIX-000.ppm, PREFIX-001.ppm, ... one every INTERVAL_MS (or as
 * fast as the host answers) until STOPFILE exists or MAX dumps (default
 * 200) were taken. Writes PREFIX.log: one line per dump, "N REQ DONE
 * STATUS", REQ and DONE in seconds of CLOCK_BOOTTIME (the clock of
 * /proc/uptime, which the guest scripts stamp their steps with). A process
 * of its own instead of a shell loop: every spawn costs 0.1-0.2 s under TCG.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_BOOTTIME, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void pause_ms(double ms)
{
    if (ms <= 0) return;
    struct timespec t = { (time_t)(ms / 1000), (long)((ms - (time_t)(ms / 1000) * 1000) * 1e6) };
    while (nanosleep(&t, &t) == -1 && errno == EINTR) ;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: dumploop PREFIX INTERVAL_MS STOPFILE [MAX]\n");
        return 2;
    }
    const char *prefix = argv[1], *stop = argv[3], *dir = getenv("VMRUN_DIR");
    double interval = atof(argv[2]);
    int max = argc > 4 ? atoi(argv[4]) : 200;
    if (!dir) {
        fprintf(stderr, "dumploop: no VMRUN_DIR (run inside vm-run.sh)\n");
        return 2;
    }
    char path[4096], req[4096], done[4200], line[256];
    snprintf(path, sizeof path, "%s.log", prefix);
    FILE *log = fopen(path, "w");
    if (!log) {
        perror(path);
        return 1;
    }
    setvbuf(log, NULL, _IOLBF, 0);
    for (int n = 0; n < max && access(stop, F_OK) != 0; n++) {
        double t0 = now();
        snprintf(path, sizeof path, "%s-%03d.ppm\n", prefix, n);
        snprintf(req, sizeof req, "%s/req.dumploop.%d.%d", dir, (int)getpid(), n);
        snprintf(done, sizeof done, "%s.done", req);
        int fd = open(req, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 || write(fd, path, strlen(path)) != (ssize_t)strlen(path)) {
            perror(req);
            return 1;
        }
        close(fd);
        while (access(done, F_OK) != 0) {
            pause_ms(5);
            if (now() - t0 > 30) {
                fprintf(stderr, "dumploop: no answer from the host\n");
                return 1;
            }
        }
        FILE *d = fopen(done, "r");
        if (!d || !fgets(line, sizeof line, d)) strcpy(line, "unreadable\n");
        if (d) fclose(d);
        line[strcspn(line, "\n")] = 0;
        double t1 = now();
        fprintf(log, "%d %.3f %.3f %s\n", n, t0, t1, line);
        pause_ms(interval - (t1 - t0) * 1000);
    }
    fclose(log);
    return 0;
}
