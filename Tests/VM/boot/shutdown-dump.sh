#!/bin/sh
# shutdown-dump.sh WORK: ExecStop= of boottest-shutdown.service (prepare.sh,
# case main): runs while systemd shuts down, after getty@tty1 has stopped.
# Waits for fbanim-poweroff.service to be up (ready after its first frame),
# takes a screendump, the VT's mode and the journal so far.
W=$1
out=$W/main
echo "boottest: shutting down; getty@tty1 is $(systemctl is-active getty@tty1.service)"
i=0
while [ "$(systemctl is-active fbanim-poweroff.service)" != active ] && [ $i -lt 150 ]; do
    sleep 0.1
    i=$((i + 1))
done
echo "boottest: fbanim-poweroff.service is $(systemctl is-active fbanim-poweroff.service)"
sleep 0.5
"$VMRUN_SCREENDUMP" "$out/shutdown.ppm"
"$W/kdmode" > "$out/shutdown.kd"
echo "boottest: shutdown screendump taken (VT $(cat "$out/shutdown.kd"))"
systemctl show fbanim-poweroff.service -p ActiveState -p Result -p ExecMainPID > "$out/poweroff.show"
"$VMRUN_DIR/save-journal"
