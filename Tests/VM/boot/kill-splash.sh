#!/bin/sh
# kill-splash.sh WORK: ExecStart= of boottest-kill.service (prepare.sh, case
# late): runs once fbanim-splash.service is ready (its first frame is on
# the screen), mid-boot (the end of the boot waits for this unit). Takes a
# screendump, SIGKILLs the splash's main process, waits until the unit has
# run its ExecStopPost, and records the VT's mode and the unit's result.
W=$1
out=$W/late
mkdir -p "$out"
"$W/kdmode" > "$out/kd-before-kill"
# Who owns the VT's switches while the splash shows (VT_PROCESS: the splash).
"$W/kdmode" --vt | tail -n 1 > "$out/vt-before-kill"
"$VMRUN_SCREENDUMP" "$out/shown.ppm"
pid=$(systemctl show -p MainPID --value fbanim-splash.service)
read -r up _ < /proc/uptime
echo "$up" > "$out/kill-uptime"
echo "boottest: SIGKILL to fbanim-splash.service's main process $pid (VT $(cat "$out/kd-before-kill"))"
[ "${pid:-0}" -gt 0 ] && kill -KILL "$pid"
i=0
while [ $i -lt 100 ]; do
    state=$(systemctl show -p ActiveState --value fbanim-splash.service)
    case $state in active | activating | deactivating | reloading) ;; *) break ;; esac
    sleep 0.1
    i=$((i + 1))
done
"$W/kdmode" > "$out/kd-after-kill"
echo "boottest: fbanim-splash.service is $state; VT $(cat "$out/kd-after-kill")"
"$VMRUN_SCREENDUMP" "$out/after-kill.ppm"
# The VT the dead splash held in VT_PROCESS must still switch: the kernel
# finds its owner gone and gives the VT back to VT_AUTO (kdmode --chvt gives
# up after 20 s: "timeout").
"$W/kdmode" --chvt 2 --vt > "$out/chvt2"
"$W/kdmode" --chvt 1 --vt > "$out/chvt1"
echo "boottest: after the kill: chvt 2: $(tr '\n' ' ' < "$out/chvt2"), chvt 1: $(tr '\n' ' ' < "$out/chvt1")"
systemctl show fbanim-splash.service -p ActiveState -p Result -p ExecMainCode -p ExecMainStatus > "$out/killed.show"
