#!/bin/sh
# handover.sh WORK: the hand-over and console cases of Tests/VM/boot.sh,
# run inside the VM (vm-run.sh, chroot mode, bochs at 480x320). Starts
# `fbanim splash` by hand, drives it with `fbanim ctl`, and leaves exit
# statuses, console modes, events and screendumps in WORK/handover/;
# boot.sh judges them on the host (Tests/VM/boot/judge.py).
#
#   reactivate  splash on /dev/dri/card0; ctl deactivate; fbdrm-test becomes
#               DRM master, shows its red/blue picture and exits (it puts the
#               splash's framebuffer back on the CRTC: the old frame shows);
#               ctl progress 95 while handed over; ctl reactivate: one
#               second later the ring is drawn again, at 95 %
#   drm-second  splash on card0, dumps every 100 ms (dumploop) through:
#               ctl deactivate; fbdrm-test draws; ctl quit --retain
#   drm-retain  splash on card0, dumps every 100 ms through: ctl quit
#               --retain (no one else yet: the splash keeps the device open
#               and the frame up); `fbanim --device /dev/dri/card0 radar`
#               sets its mode with its first frame; the splash exits
#   fb-retain   splash on /dev/fb0; ctl quit --retain with nobody taking
#               over; dumps for 2 s after; the VT stays in KD_GRAPHICS
#   fb-console  splash on /dev/fb0; the VT switched to KD_TEXT from outside
#               (kdmode --text): how long until it is KD_GRAPHICS again; a
#               dump after
#   run-full    splash on card0 with /run full (a tmpfs with no room and no
#               inode left, in a mount namespace of its own): no FIFO, one
#               line, the ring shows, ctl quit ends it
#
# Every step waits for a state or a file, not a fixed time, where it can
# (process spawns cost 0.1-0.2 s under TCG, fbanim 0.5-1.5 s).
W=$1
B=$W/fbanim
K=$W/kdmode
out=$W/handover
mkdir -p "$out"
# Each splash keeps its boot history (written at quit) in a folder of its
# own: none finds an earlier one, so the ring shows the time since the boot
# against 20 s, capped at 0.9 (the overlay's /var/lib/fbanim is fresh).

ev() { # a line in the events file, stamped with /proc/uptime (CLOCK_BOOTTIME, as dumploop's)
    read -r up _ < /proc/uptime
    echo "$up $*" >> "$out/events"
}
dump() { "$VMRUN_SCREENDUMP" "$out/$1.ppm" || echo "dump $1 failed" >> "$out/errors"; }
# start NAME ARGS...: a splash in the background; waits until it holds the VT
# in graphics mode, then half a second for its first frames.
start() {
    name=$1
    shift
    ev "$name: splash $*"
    FBANIM_STATE_DIR=/run/boottest-state/$name "$B" splash "$@" > "$out/$name.out" 2> "$out/$name.err" &
    splash=$!
    "$K" --wait-graphics 15 > "$out/$name.kd-during"
    sleep 0.5
    ev "$name: splash up"
}
# ctl NAME COMMAND...: fbanim ctl, its status kept in NAME.rc
ctl() {
    name=$1
    shift
    ev "ctl $*"
    "$B" ctl "$@" > /dev/null 2>> "$out/ctl.err"
    echo $? > "$out/$name.rc"
    ev "ctl $* answered ($(cat "$out/$name.rc"))"
}
# ended NAME: waits for the splash, keeps its status and the VT mode after it
ended() {
    wait "$splash"
    echo $? > "$out/$1.rc"
    ev "$1: splash exited ($(cat "$out/$1.rc"))"
    "$K" > "$out/$1.kd-after"
}
# until_file FILE PATTERN: waits (10 s at most) for PATTERN in FILE
until_file() {
    i=0
    while ! grep -q "$2" "$1" 2> /dev/null && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}

# ---- reactivate
start reactivate --device /dev/dri/card0
dump reactivate-before
ctl reactivate-deactivate deactivate
"$W/fbdrm-test" drm --hold 1.5 > "$out/reactivate-second.out" 2>&1 &
second=$!
until_file "$out/reactivate-second.out" READY
dump reactivate-second
wait "$second"
echo $? > "$out/reactivate-second.rc"
ctl reactivate-progress progress 95
dump reactivate-gap
ctl reactivate-reactivate reactivate
sleep 1
dump reactivate-back
ctl reactivate-quit quit
ended reactivate

# ---- drm-second: deactivate, a second master draws, quit --retain
rm -f "$out/drm-second.stop"
start drm-second --device /dev/dri/card0
"$W/dumploop" "$out/drm-second" 100 "$out/drm-second.stop" 80 &
dumps=$!
sleep 0.6
ctl drm-second-deactivate deactivate
ev "second program starts"
"$W/fbdrm-test" drm --hold 30 > "$out/drm-second-second.out" 2>&1 &
second=$!
until_file "$out/drm-second-second.out" READY
ev "second program shows its picture"
sleep 0.6
ctl drm-second-quit quit --retain
ended drm-second
sleep 0.8
touch "$out/drm-second.stop"
wait "$dumps"
kill -TERM "$second"
wait "$second"
ev "second program ended"
"$K" --text > /dev/null

# ---- drm-retain: quit --retain first, then the next program sets its mode
rm -f "$out/drm-retain.stop"
start drm-retain --device /dev/dri/card0
"$W/dumploop" "$out/drm-retain" 100 "$out/drm-retain.stop" 80 &
dumps=$!
sleep 0.6
ctl drm-retain-quit quit --retain
sleep 1.5
ev "next program starts: fbanim radar"
"$B" --device /dev/dri/card0 --duration 6 radar > /dev/null 2> "$out/drm-retain-radar.err" &
radar=$!
ended drm-retain
sleep 0.8
touch "$out/drm-retain.stop"
wait "$dumps"
wait "$radar"
echo $? > "$out/drm-retain-radar.rc"
ev "next program ended"
"$K" --text > /dev/null

# ---- fb-retain: quit --retain on fbdev, nobody takes over
rm -f "$out/fb-retain.stop"
start fb-retain --device /dev/fb0
"$W/dumploop" "$out/fb-retain" 100 "$out/fb-retain.stop" 60 &
dumps=$!
sleep 0.6
ctl fb-retain-quit quit --retain
ended fb-retain
sleep 2
touch "$out/fb-retain.stop"
wait "$dumps"
"$K" > "$out/fb-retain.kd-later"
"$K" --text > /dev/null

# ---- fb-console: the VT switched to text from outside
start fb-console --device /dev/fb0
dump fb-console-before
ev "VT to KD_TEXT"
"$K" --text --wait-graphics 5 --ms > "$out/fb-console.taken-back"
ev "VT back in $(head -n 1 "$out/fb-console.taken-back") after $(tail -n 1 "$out/fb-console.taken-back") ms"
sleep 0.3
dump fb-console-after
ctl fb-console-quit quit
ended fb-console

# ---- run-full: /run full (no room, no inode left) for the splash: a tmpfs
# over /run in a mount namespace of its own (unshare -m: private, nothing
# leaks out); fbanim ctl reaches it all the same (the abstract socket)
ev "run-full: splash with /run full"
unshare -m sh -c 'mount -t tmpfs -o size=64k,nr_inodes=3 boottest-full /run &&
    dd if=/dev/zero of=/run/fill bs=4k 2> /dev/null; : > /run/last; df -i /run | tail -n 1 >&2 &&
    exec "$0" splash --device /dev/dri/card0' "$B" > "$out/run-full.out" 2> "$out/run-full.err" &
splash=$!
"$K" --wait-graphics 15 > "$out/run-full.kd-during"
sleep 0.5
dump run-full
ctl run-full-quit quit
ended run-full
exit 0
