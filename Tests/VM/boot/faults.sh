#!/bin/sh
# faults.sh WORK: ExecStart= of boottest-faults.service (prepare.sh, case
# faults): runs mid-boot once fbanim-splash.service is ready (its first
# frame is on the screen); the end of the boot (fbanim-quit) waits for it.
# The splash runs with a garbage /etc/fbanim/fbanim.conf and /run and
# /var/lib/fbanim read-only to it (prepare.sh). Here, one after the other:
#
#   steal   another program takes DRM master behind the splash's back
#           (steal-master: DROP_MASTER on a duplicate of the splash's own
#           card descriptor, then it becomes master itself and shows its
#           red/blue picture for 8 s): the splash must notice, wait without
#           drawing or spinning, and take the display back when it exits
#   vt      a VT switch to tty2 (kdmode --chvt: VT_ACTIVATE + WAITACTIVE, as
#           chvt) while the splash owns tty1's switches (VT_PROCESS): it lets
#           the display go, fbdrm-test becomes master on tty2 and draws;
#           back to tty1 while fbdrm-test still holds the display: the
#           splash waits, then takes it back when fbdrm-test exits
#   unbind  the display's driver unbound from its PCI device (the display
#           goes away), then bound again (a new DRM device appears): the
#           splash moves to it (through /dev/fb0 when that comes first)
#
# Leaves events (stamped with /proc/uptime), screendumps, VT states and the
# splash's CPU ticks (/proc/PID/stat utime + stime, 1/100 s) in WORK/faults/.
W=$1
K=$W/kdmode
out=$W/faults
mkdir -p "$out"
ev() {
    read -r up _ < /proc/uptime
    echo "$up $*" >> "$out/events"
    echo "boottest-faults: $*"
}
dump() { "$VMRUN_SCREENDUMP" "$out/$1.ppm" || echo "dump $1 failed" >> "$out/errors"; }
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null; }
# seen TEXT: how many lines of the splash's log hold TEXT
seen() { journalctl -b -o cat -u fbanim-splash.service 2> /dev/null | grep -c -F -- "$1"; }
# wait_file FILE TEXT: waits (30 s at most) until FILE holds TEXT
wait_file() {
    i=0
    while ! grep -q "$2" "$1" 2> /dev/null && [ $i -lt 150 ]; do
        sleep 0.2
        i=$((i + 1))
    done
}
# wait_seen TEXT N: waits (30 s at most) until TEXT is in N lines of the
# log; status 1 if it never came
wait_seen() {
    i=0
    while [ "$(seen "$1")" -lt "$2" ]; do
        [ $i -lt 60 ] || return 1
        sleep 0.5
        i=$((i + 1))
    done
}
# said WHAT TEXT N: an event: the splash said TEXT (wait_seen), or not
said() {
    if wait_seen "$2" "$3"; then ev "$1: the splash says '$2'"; else ev "$1: NOT said in 30 s: '$2'"; fi
}
pid=$(systemctl show -p MainPID --value fbanim-splash.service)
echo "$pid" > "$out/pid"
"$K" --vt > "$out/vt-start"
dump start
ev "splash $pid up: $(tr '\n' ' ' < "$out/vt-start")"

# ---- the splash drawing, for comparison: its CPU over 4 s
c0=$(cpu "$pid")
sleep 4
echo "$(($(cpu "$pid") - c0))" > "$out/cpu-drawing"

# ---- steal: DRM master taken without deactivate
took=$(seen "back")
c0=$(cpu "$pid")
ev "steal: master taken from $pid"
"$W/steal-master" "$pid" 8 > "$out/steal.out" 2> "$out/steal.err" &
sp=$!
wait_file "$out/steal.out" READY
ev "steal: its picture is up"
dump steal-held
wait "$sp"
echo $? > "$out/steal.rc"
ev "steal: steal-master exited ($(cat "$out/steal.rc"))"
echo "$(($(cpu "$pid") - c0))" > "$out/cpu-stolen"
said steal "back" $((took + 1))
sleep 1
dump steal-after

# ---- vt: a switch to tty2 and back, VT_PROCESS
took=$(seen "back")
ev "vt: chvt 2"
"$K" --chvt 2 --vt > "$out/vt-away"
ev "vt: on tty2 ($(tr '\n' ' ' < "$out/vt-away"))"
sleep 1
dump vt-away
"$W/fbdrm-test" drm --hold 6 > "$out/vt-second.out" 2> "$out/vt-second.err" &
fp=$!
wait_file "$out/vt-second.out" READY
ev "vt: fbdrm-test's picture is up on tty2"
dump vt-second
c0=$(cpu "$pid")
ev "vt: chvt 1 while fbdrm-test holds the display"
"$K" --chvt 1 --vt > "$out/vt-back"
ev "vt: on tty1 ($(tr '\n' ' ' < "$out/vt-back"))"
dump vt-back-held
wait "$fp"
echo $? > "$out/vt-second.rc"
ev "vt: fbdrm-test exited ($(cat "$out/vt-second.rc"))"
echo "$(($(cpu "$pid") - c0))" > "$out/cpu-vt-held"
said vt "back" $((took + 1))
sleep 1
dump vt-after
"$K" --vt > "$out/vt-after"

# ---- unbind: the display goes away, a new one appears
dev=$(readlink -f /sys/class/drm/card0/device)
drv=$(readlink -f /sys/class/drm/card0/device/driver)
shows=$(seen "showing on /dev/dri/")
ev "unbind: $(basename "$dev") from $(basename "$drv")"
echo "$(basename "$dev")" > "$drv/unbind"
said unbind "went away" 1
ls /dev/dri > "$out/dri-unbound" 2>&1
sleep 1
ev "bind: $(basename "$dev") to $(basename "$drv")"
echo "$(basename "$dev")" > "$drv/bind"
said bind "showing on /dev/dri/" $((shows + 1))
ls /dev/dri > "$out/dri-bound" 2>&1
sleep 2
dump rebound
"$K" --vt > "$out/vt-end"
systemctl show fbanim-splash.service -p MainPID -p NRestarts -p ActiveState > "$out/splash-end.show"
ev "done"
