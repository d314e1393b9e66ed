#!/bin/bash
# plymouth-cpu.sh - measure how much CPU Plymouth (plymouthd, Debian 12 package
# 22.02.122-3) uses while it animates a splash on a real kernel DRM device,
# inside a throw-away QEMU/TCG VM booted by vm-run.sh.
#
#   plymouth-cpu.sh [DISPLAY [WxH [SECONDS [THEME]]]]
#       DISPLAY  bochs | bochs-display | virtio          (default bochs)
#       WxH      monitor size, e.g. 480x320, 1280x800    (default 480x320)
#       SECONDS  measurement window (wall time)          (default 10)
#       THEME    a /usr/share/plymouth/themes/ name      (default spinner)
#
# Prints ONE line on stdout:
#   plymouth <theme> <WxH> cpu_per_s=<x> frames_changed=<yes/no>
# cpu_per_s = CPU time plymouthd used during the window / the window's wall
# time, both read inside the guest: the CPU time is the scheduler's
# sum_exec_runtime in ns (/proc/<pid>/task/*/schedstat, field 1) -- the same
# quantity /proc/<pid>/stat reports as utime+stime, there truncated to 10 ms
# ticks (also printed, as cpu_per_s_ticks, in the details); the wall time is
# bash's $EPOCHREALTIME. It is a fraction of the guest's single emulated CPU,
# i.e. TCG-slowed (PLY_CALIB=1 measures host/TCG ratios).
# frames_changed: 3 host screendumps (QMP) taken after the window, ~1.2 s and
# ~0.5 s apart; "yes" if any two consecutive ones differ (bounding box in details).
# Details (all raw numbers) go to stderr and to $OUTDIR/result.txt.
#
# Environment:
#   VMRUN=/path/vm-run.sh   harness (default: harness/vm-run.sh beside this script)
#   PLY_OUT=DIR             parent of the per-run output dir (default $TMPDIR/plymouth-cpu-runs)
#   PLY_WARMUP=S            seconds between show-splash and the window (default 3)
#   PLY_CALIB=1             also run the calibration phase in the same VM: idle VM
#                           window, busy-loop window, fixed-work benchmarks (guest
#                           and host) -> TCG slowdown ratio (adds ~1 min)
#   PLY_RENDERER=fb         make plymouthd use its frame-buffer renderer (fbdev
#                           emulation of the same DRM driver) instead of drm.so:
#                           /dev/dri/card0 is replaced by fb0's device node in the
#                           guest (see below) (default: drm)
#   PLY_KEEP_PPM=0          delete the screendumps afterwards (default keep)
#
#   PLY_CMD='prog args'     measure this program instead of plymouthd, with the same
#                           VM, windows, dumps and numbers (it is started in the
#                           background, measured after PLY_WARMUP, then SIGTERMed;
#                           paths as on the host; children are not counted); the
#                           line then starts with "${PLY_LABEL:-cmd} <prog basename>"
#   PLY_ACPI_OFF=1          add acpi=off (vm-run.sh's default): reproduces the broken
#                           jiffies clock under which plymouthd reads 0 CPU
#
# Scripts/vm-vs-plymouth.sh runs it alternately for Plymouth and fbanim and
# prints medians.
#
# Needs (host): vm-run.sh and its packages, plymouth + plymouth-themes, bash,
# cmp, awk, pgrep (procps); gcc only for PLY_CALIB=1; python3+PIL optional (PNG).
set -u
set -o pipefail

DISPLAY_KIND=${1:-bochs}
SIZE=${2:-480x320}
SECS=${3:-10}
THEME=${4:-spinner}
WARMUP=${PLY_WARMUP:-3}
CALIB=${PLY_CALIB:-0}
RENDERER=${PLY_RENDERER:-drm}
HERE=$(cd "$(dirname "$0")" && pwd)
VMRUN=${VMRUN:-$HERE/harness/vm-run.sh}

die() { echo "plymouth-cpu.sh: $*" >&2; exit 2; }
case $DISPLAY_KIND in bochs|bochs-display|virtio) ;; *) die "DISPLAY must be bochs, bochs-display or virtio (got $DISPLAY_KIND)" ;; esac
[[ $SIZE =~ ^([0-9]+)x([0-9]+)$ ]] || die "bad size $SIZE"
[[ $SECS =~ ^[0-9]+$ ]] && [ "$SECS" -ge 1 ] || die "SECONDS must be a whole number >= 1"
[[ $WARMUP =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "bad PLY_WARMUP"
[ -x "$VMRUN" ] || die "vm-run.sh not found: $VMRUN"
command -v plymouthd > /dev/null || die "plymouthd not installed (apt-get install plymouth plymouth-themes)"
[ -f "/usr/share/plymouth/themes/$THEME/$THEME.plymouth" ] || die "no theme $THEME in /usr/share/plymouth/themes"
command -v pgrep > /dev/null || die "pgrep not found (apt-get install procps)"

TAG=$THEME
if [ -n "${PLY_CMD:-}" ]; then TAG=${PLY_CMD%% *}; TAG=cmd-${TAG##*/}; fi
OUTDIR=${PLY_OUT:-${TMPDIR:-/tmp}/plymouth-cpu-runs}/$TAG-$DISPLAY_KIND-$SIZE-$RENDERER-$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
[[ $OUTDIR != *[[:space:]]* ]] || die "output path must not contain white space"

# ---------------------------------------------------------------- calibration tools
BENCH_ARGS=("blend 30000" "int 100" "mem 10000" "sys 300")
if [ "$CALIB" = 1 ]; then
    command -v gcc > /dev/null || die "PLY_CALIB=1 needs gcc"
    cat > "$OUTDIR/cpubench.c" <<'CEOF'
/* fixed-work CPU benchmark: <mode> iters=<n> cpu_s=<x> wall_s=<y>
 * blend: ARGB "over" blend of a 48x48 sprite into a 480x320 buffer, ITERS times
 * int: xorshift loop, ITERS*1e6 steps; mem: 480x320x4 memcpy ITERS times;
 * sys: ITERS*1000 getppid() system calls; duty: see below */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s blend|int|mem ITERS\n", argv[0]); return 2; }
    const char *mode = argv[1];
    long iters = atol(argv[2]);
    const int W = 480, H = 320, S = 48;
    uint32_t *fb = calloc(W * H, 4), *fb2 = calloc(W * H, 4), *spr = malloc(S * S * 4);
    for (int i = 0; i < S * S; i++) spr[i] = ((uint32_t)(i * 7 & 255) << 24) | (i * 2654435761u & 0xffffff);
    volatile uint32_t sink = 0;
    double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
    if (!strcmp(mode, "blend")) {
        for (long it = 0; it < iters; it++) {
            int ox = (it * 13) % (W - S), oy = (it * 7) % (H - S);
            for (int y = 0; y < S; y++)
                for (int x = 0; x < S; x++) {
                    uint32_t s = spr[y * S + x], *d = &fb[(oy + y) * W + ox + x];
                    uint32_t a = s >> 24, na = 255 - a, dv = *d;
                    uint32_t r = (((s >> 16) & 255) * a + ((dv >> 16) & 255) * na) / 255;
                    uint32_t g = (((s >> 8) & 255) * a + ((dv >> 8) & 255) * na) / 255;
                    uint32_t b = ((s & 255) * a + (dv & 255) * na) / 255;
                    *d = 0xff000000u | r << 16 | g << 8 | b;
                }
        }
        sink = fb[W * H / 2];
    } else if (!strcmp(mode, "int")) {
        uint64_t v = 88172645463325252ull;
        for (long it = 0; it < iters * 1000000L; it++) { v ^= v << 13; v ^= v >> 7; v ^= v << 17; v += it; }
        sink = (uint32_t)v;
    } else if (!strcmp(mode, "mem")) {
        for (long it = 0; it < iters; it++) { memcpy((it & 1) ? fb : fb2, (it & 1) ? fb2 : fb, W * H * 4); fb[it % (W * H)] = it; }
        sink = fb[7];
    } else if (!strcmp(mode, "sys")) {
        for (long it = 0; it < iters * 1000L; it++) sink += (uint32_t)getppid();
    } else if (!strcmp(mode, "duty")) {
        /* duty PERIOD_MS BUSY_US SECONDS: wake every PERIOD_MS (absolute
         * timer), spin BUSY_US of wall time, sleep again -- a synthetic
         * timer-driven animation with a known CPU fraction BUSY/PERIOD */
        long period = iters * 1000000L, busy = atol(argv[3]) * 1000L;
        double end = w0 + atof(argv[4]);
        struct timespec next; clock_gettime(CLOCK_MONOTONIC, &next);
        for (;;) {
            next.tv_nsec += period;
            while (next.tv_nsec >= 1000000000L) { next.tv_nsec -= 1000000000L; next.tv_sec++; }
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
            double t = now(CLOCK_MONOTONIC);
            if (t > end) break;
            while ((now(CLOCK_MONOTONIC) - t) * 1e9 < busy) sink++;
        }
    } else { fprintf(stderr, "bad mode\n"); return 2; }
    double c1 = now(CLOCK_PROCESS_CPUTIME_ID), w1 = now(CLOCK_MONOTONIC);
    printf("%s iters=%ld cpu_s=%.3f wall_s=%.3f sink=%u\n", mode, iters, c1 - c0, w1 - w0, (unsigned)sink);
    return 0;
}
CEOF
    gcc -O2 -o "$OUTDIR/cpubench" "$OUTDIR/cpubench.c" || die "gcc failed"
    cat > "$OUTDIR/shloop.sh" <<'SEOF'
#!/bin/sh
# dash arithmetic loop of $1 iterations (interpreter + fork-free), times from /proc
n=$1
read -r u0 _ < /proc/uptime
i=0; while [ $i -lt $n ]; do i=$((i+1)); done
read -r u1 _ < /proc/uptime
read -r st < /proc/$$/stat; set -- $st
echo "shloop iters=$n cpu_s=$(( ${14} + ${15} ))e-2 wall_s=$(( ${u1%.*}${u1#*.} - ${u0%.*}${u0#*.} ))e-2"
SEOF
    chmod +x "$OUTDIR/shloop.sh"
fi

# ---------------------------------------------------------------- guest script
# Runs inside the VM (host /bin/sh = dash, chroot of the host root with a
# writable tmpfs overlay). Only builtins between the "snap" reads, so the
# window boundaries are not blurred by fork/exec (~150-250 ms each under TCG).
cat > "$OUTDIR/guest.sh" <<'GEOF'
#!/bin/bash
# runs in the guest (host's bash via chroot). Only builtins inside a window:
# "sleep" there is "read -t" on a FIFO, so no fork/exec (~150-250 ms of CPU
# each under TCG) blurs the system-wide numbers.
THEME=$1 SECS=$2 OUT=$3 WARMUP=$4 CALIB=$5 RENDERER=$6 CMD=${7:-}
R=$OUT/result.txt
: > "$R"
rec() { echo "$*" >> "$R"; }
mkfifo /tmp/ply-sleep.fifo && exec 9<> /tmp/ply-sleep.fifo
fsleep() { read -r -t "$1" -u 9 _; }
# snap PID -> T (utime+stime ticks), UT/ST, NS (schedstat run ns), V/NV (ctx
# switches), WU (wall us, CLOCK_REALTIME), SI (system idle+iowait ticks, precise with NO_HZ)
snap() {
    local p=$1 s k v t
    WU=${EPOCHREALTIME/[.,]/}
    read -r s < /proc/$p/stat || return 1
    s=${s##*) }
    set -- $s
    UT=${12} ST=${13}; T=$(( UT + ST ))
    NS=0
    for t in /proc/$p/task/*/schedstat; do read -r k _ < "$t" && NS=$(( NS + k )); done
    V=0 NV=0
    while read -r k v; do
        case $k in
        voluntary_ctxt_switches:) V=$v ;;
        nonvoluntary_ctxt_switches:) NV=$v ;;
        esac
    done < /proc/$p/status
    read -r _ _ _ _ d e _ < /proc/stat
    SI=$(( d + e ))
}
window() { # NAME PID: measure PID over SECS seconds of wall time
    : > "$OUT/$1.start"
    snap $2 || { rec "$1 ERROR no process $2"; return 1; }
    local T0=$T UT0=$UT ST0=$ST NS0=$NS V0=$V NV0=$NV WU0=$WU SI0=$SI
    fsleep "$SECS"
    snap $2 || { rec "$1 ERROR process $2 died"; return 1; }
    : > "$OUT/$1.end"
    rec "$1 ticks=$((T - T0)) run_ns=$((NS - NS0)) wall_us=$((WU - WU0)) vcsw=$((V - V0)) ivcsw=$((NV - NV0)) utime=$((UT - UT0)) stime=$((ST - ST0)) sys_idle_ticks=$((SI - SI0))"
}

rec "clk_tck $(getconf CLK_TCK)"
rec "kernel $(uname -r)"
rec "cmdline $(cat /proc/cmdline)"
rec "fb0 $(cat /sys/class/graphics/fb0/name 2> /dev/null) $(cat /sys/class/graphics/fb0/virtual_size 2> /dev/null)"
rec "drm_modes $(cat /sys/class/drm/card0-*/modes 2> /dev/null | head -n 1)"
rec "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) hres_active=$(grep -m1 hres_active /proc/timer_list | tr -dc 0-9)"
# fbcon's blinking cursor would show up as a (tiny) frame change for a program
# that does not switch the VT to KD_GRAPHICS as plymouthd does; stop it blinking
echo 0 > /sys/class/graphics/fbcon/cursor_blink 2> /dev/null && rec "fbcon cursor_blink 0"
mkdir -p /etc/plymouth /run/plymouth /var/lib/plymouth /var/log
printf '[Daemon]\nTheme=%s\nShowDelay=0\nDeviceTimeout=8\n' "$THEME" > /etc/plymouth/plymouthd.conf
if [ "$RENDERER" = fb ]; then
    # With plymouth.ignore-udev, plymouthd 22.02 hands every renderer plugin the
    # device name /dev/dri/card0 (frame-buffer.so too: "could not open
    # '/dev/dri/card0'" when it is simply removed, then a text splash on tty1).
    # So replace card0 by fb0's char device: drm.so then fails ("Could not get
    # card resources") and frame-buffer.so drives the fbdev through that node.
    IFS=: read -r MA MI < /sys/class/graphics/fb0/dev
    rm -f /dev/dri/card0 && mknod /dev/dri/card0 c "$MA" "$MI" &&
        rec "renderer fb: /dev/dri/card0 replaced by fb0's node c $MA:$MI"
fi

if [ "$CALIB" = 1 ]; then
    # idle VM: nothing runs but a sleeping process (the host reads qemu's CPU)
    sleep 1000 & IDLE=$!
    sleep 1
    window idle_vm $IDLE
    kill $IDLE
fi

sleep 100000 & REF=$!        # idle reference process, measured in the same window (exec'd during the warm-up)
if [ -n "$CMD" ]; then
    # another splash program, measured exactly the same way (PLY_CMD)
    sh -c "exec $CMD" > "$OUT/cmd.stdout" 2> "$OUT/cmd.stderr" & PID=$!
    rec "cmd_pid $PID $CMD"
    sleep "$WARMUP"
else
    # same invocation as Debian's initramfs/systemd unit, plus: the kernel command
    # line has "splash plymouth.ignore-udev plymouth.ignore-serial-consoles" (vm-run.sh --append)
    plymouthd --mode=boot --attach-to-session --pid-file=/run/plymouth/pid
    rec "plymouthd_start_rc $?"
    read -r PID < /run/plymouth/pid
    rec "plymouthd_pid $PID"
    plymouth --show-splash
    rec "show_splash_rc $?"
    sleep "$WARMUP"
    plymouth --has-active-vt; rec "has_active_vt_rc $?"
fi
# both measured over the same window: plymouthd, and the idle reference
WNAME=plymouthd; [ -n "$CMD" ] && WNAME=cmd
snap $REF; RT0=$T RN0=$NS
window $WNAME $PID
snap $REF; rec "idle_ref ticks=$((T - RT0)) run_ns=$((NS - RN0))"
kill -0 $PID 2> /dev/null && rec "${WNAME}_alive_after yes" || rec "${WNAME}_alive_after no"
$VMRUN_SCREENDUMP "$OUT/a.ppm"; rec "dump_a $?"
sleep 1
$VMRUN_SCREENDUMP "$OUT/b.ppm"; rec "dump_b $?"
sleep 0.3
$VMRUN_SCREENDUMP "$OUT/c.ppm"; rec "dump_c $?"
rec "plymouthd_maps_renderer $(grep -o 'renderers/[a-z-]*\.so' /proc/$PID/maps | sort -u | tr '\n' ' ')"
rec "plymouthd_fds $(ls -l /proc/$PID/fd 2> /dev/null | grep -oE '/dev/(dri/card[0-9]|fb[0-9]|tty[0-9S]*)' | sort -u | tr '\n' ' ')"
if [ -n "$CMD" ]; then
    kill $PID; wait $PID; rec "cmd_exit $?"
else
    plymouth --quit; rec "quit_rc $?"
fi
kill $REF

if [ "$CALIB" = 1 ]; then
    # trivial busy loop: expect cpu_per_s ~ 1 (accounting sanity check)
    sh -c 'while :; do :; done' & BUSY=$!
    sleep 1
    window busy_loop $BUSY
    kill $BUSY
    # synthetic timer-driven animation: wake every 20 ms, spin 1 ms -> expect
    # utime ~0.05 s/s (+ the kernel's wake-up cost in stime)
    "$OUT/cpubench" duty 20 1000 $((SECS + 3)) > /dev/null & DUTY=$!
    sleep 1
    window duty_20ms_1ms $DUTY
    wait $DUTY
    for b in "blend 30000" "int 100" "mem 10000" "sys 300"; do
        rec "guest_bench $("$OUT/cpubench" $b)"
    done
    for r in 1 2; do rec "guest_bench $("$OUT/shloop.sh" 60000)"; done
fi
GEOF

# ---------------------------------------------------------------- run the VM
W=${SIZE%x*} H=${SIZE#*x}
LOG=$OUTDIR/vmrun.log
APPEND="splash plymouth.ignore-udev plymouth.ignore-serial-consoles"
# vm-run.sh's default trimming includes acpi=off: then the guest finds no HPET /
# PM timer, cannot calibrate the TSC ("tsc: Marking TSC unstable due to could
# not calculate TSC khz"), runs on the refined-jiffies clocksource with low-res
# (4 ms) timers and a jiffies sched_clock -- per-process CPU times of short,
# timer-driven bursts then read ~0 (plymouthd: 0 ns over 10 s). So: VMRUN_FAST=0
# (ACPI on -> tsc clocksource, hres timers) plus the other trims by hand.
APPEND+=" mitigations=off rodata=off cryptomgr.notests i8042.noaux i8042.nokbd i8042.nopnp"
APPEND+=" initcall_blacklist=crypto_kdf108_init,init_kprobe_trace,load_system_certificate_list"
[ "${PLY_ACPI_OFF:-0}" = 1 ] && APPEND+=" acpi=off"     # only to reproduce the bad clock
VMRUN_FAST=0 "$VMRUN" --display "$DISPLAY_KIND" --size "$SIZE" --rw "$OUTDIR" --timeout $((SECS * (CALIB == 1 ? 4 : 1) + 150)) \
    --append "$APPEND" -- /bin/bash "$OUTDIR/guest.sh" "$THEME" "$SECS" "$OUTDIR" "$WARMUP" "$CALIB" "$RENDERER" "${PLY_CMD:-}" \
    > "$LOG" 2>&1 &
VPID=$!

# host side: qemu's own CPU time (all its threads) over the same windows,
# marked by the guest with <name>.start / <name>.end files
QPID=
qticks() { local s; read -r s < /proc/$QPID/stat || return 1; s=${s##*) }; set -- $s; echo $(( ${12} + ${13} )); }
declare -A QT0 QW0
HOST_TCK=$(getconf CLK_TCK)
while kill -0 "$VPID" 2> /dev/null; do
    if [ -z "$QPID" ]; then
        QPID=$(pgrep -P "$VPID" -x qemu-system-x86 | head -n 1)
    else
        for w in idle_vm plymouthd cmd busy_loop duty_20ms_1ms; do
            if [ -e "$OUTDIR/$w.start" ] && [ -z "${QT0[$w]:-}" ]; then
                QT0[$w]=$(qticks) || QT0[$w]=x; QW0[$w]=${EPOCHREALTIME/[.,]/}
            fi
            if [ -e "$OUTDIR/$w.end" ] && [ -n "${QT0[$w]:-}" ] && [ "${QT0[$w]}" != done ]; then
                t1=$(qticks) && [ "${QT0[$w]}" != x ] &&
                    echo "host_qemu_$w ticks=$((t1 - QT0[$w])) wall_us=$(( ${EPOCHREALTIME/[.,]/} - QW0[$w] )) host_clk_tck=$HOST_TCK" >> "$OUTDIR/host.txt"
                QT0[$w]=done
            fi
        done
    fi
    sleep 0.02
done
wait "$VPID"
RC=$?
[ "$RC" = 0 ] || { cat "$LOG" >&2; die "vm-run.sh exit status $RC (log: $LOG)"; }

if [ "$CALIB" = 1 ]; then
    for b in "${BENCH_ARGS[@]}"; do
        for r in 1 2 3; do echo "host_bench $("$OUTDIR/cpubench" $b)" >> "$OUTDIR/host.txt"; done
    done
    for r in 1 2 3; do echo "host_bench $("$OUTDIR/shloop.sh" 60000)" >> "$OUTDIR/host.txt"; done
fi

# ---------------------------------------------------------------- evaluate
R=$OUTDIR/result.txt
[ -s "$R" ] || die "no result file from the guest (log: $LOG)"
TCK=$(awk '$1 == "clk_tck" {print $2}' "$R")
val() { awk -v k="$1" -v f="$2" '$1 == k { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$3"; }
WN=plymouthd; [ -n "${PLY_CMD:-}" ] && WN=cmd
ticks=$(val $WN ticks "$R") wus=$(val $WN wall_us "$R")
[ -n "$ticks" ] && [ -n "$wus" ] && [ "$wus" -gt 0 ] || { cat "$R" >&2; die "$WN window not measured"; }
cpu_ticks=$(awk -v t="$ticks" -v k="$TCK" -v w="$wus" 'BEGIN { printf "%.4f", (t / k) / (w / 1e6) }')
# the same quantity at ns resolution: utime+stime in /proc/PID/stat is the
# scheduler's sum_exec_runtime split and truncated to clock ticks (10 ms),
# /proc/PID/schedstat field 1 is that sum_exec_runtime in ns
ns=$(val $WN run_ns "$R")
if [ -n "$ns" ] && [ "$ns" -gt 0 ]; then
    cpu=$(awk -v n="$ns" -v w="$wus" 'BEGIN { printf "%.4f", (n / 1e9) / (w / 1e6) }')
else
    cpu=$cpu_ticks
fi
# whole guest (1 vCPU): 1 - idle/wall; includes kernel workers, interrupts, ...
sys=$(awk -v i="$(val $WN sys_idle_ticks "$R")" -v k="$TCK" -v w="$wus" 'BEGIN { printf "%.4f", 1 - (i / k) / (w / 1e6) }')
wake=$(awk -v v="$(val $WN vcsw "$R")" -v w="$wus" 'BEGIN { printf "%.1f", v / (w / 1e6) }')

# frames: differing bytes and their bounding box (pixels), pure cmp + awk
ppm_hdr() { head -n 3 "$1" | wc -c; }
diffbox() { # A B -> "<n differing pixels> x0,y0-x1,y1" or "0 -"
    local hl; hl=$(ppm_hdr "$1")
    { cmp -l "$1" "$2" 2> /dev/null || true; } | awk -v hl="$hl" -v w="$W" '
        { p = int(($1 - 1 - hl) / 3); if (p == last) next; last = p; n++
          x = p % w; y = int(p / w)
          if (n == 1 || x < x0) x0 = x; if (n == 1 || x > x1) x1 = x
          if (n == 1 || y < y0) y0 = y; if (n == 1 || y > y1) y1 = y }
        END { if (n) printf "%d %d,%d-%d,%d\n", n, x0, y0, x1, y1; else print "0 -" }'
}
changed=no
DIFFS=
if [ -s "$OUTDIR/a.ppm" ] && [ -s "$OUTDIR/b.ppm" ]; then
    ab=$(diffbox "$OUTDIR/a.ppm" "$OUTDIR/b.ppm")
    bc=$( [ -s "$OUTDIR/c.ppm" ] && diffbox "$OUTDIR/b.ppm" "$OUTDIR/c.ppm" || echo "0 -")
    DIFFS="a-b: ${ab% *} px in ${ab#* }; b-c: ${bc% *} px in ${bc#* }"
    [ "${ab%% *}" != 0 ] || [ "${bc%% *}" != 0 ] && changed=yes
    # PNG copies to look at (optional)
    if command -v python3 > /dev/null && python3 -c 'import PIL' 2> /dev/null; then
        python3 - "$OUTDIR" <<'PYEOF' 2> /dev/null
import sys
from PIL import Image
d = sys.argv[1]
Image.open(d + '/a.ppm').save(d + '/a.png')
Image.open(d + '/b.ppm').save(d + '/b.png')
PYEOF
    fi
else
    DIFFS="screendumps missing"
fi
{
    echo "outdir $OUTDIR"
    cat "$R"
    [ -f "$OUTDIR/host.txt" ] && cat "$OUTDIR/host.txt"
    echo "frames $DIFFS"
    echo "cpu_per_s (schedstat ns) $cpu ; from stat utime+stime ticks $cpu_ticks ; $WN wakeups/s $wake ; guest busy/s (all) $sys"
} >&2
{
    echo "frames $DIFFS"
    echo "summary theme=$TAG display=$DISPLAY_KIND size=$SIZE renderer=$RENDERER secs=$SECS cpu_per_s=$cpu cpu_per_s_ticks=$cpu_ticks wakeups_per_s=$wake guest_busy_per_s=$sys"
} >> "$R"
[ "${PLY_KEEP_PPM:-1}" = 0 ] && rm -f "$OUTDIR"/[abc].ppm
if [ -n "${PLY_CMD:-}" ]; then
    name=${PLY_CMD%% *}; name=${name##*/}
    echo "${PLY_LABEL:-cmd} $name $SIZE cpu_per_s=$cpu frames_changed=$changed"
else
    echo "plymouth $THEME $SIZE cpu_per_s=$cpu frames_changed=$changed"
fi
