#!/bin/sh
# guest-systemd.sh CASE WORK: the COMMAND of Tests/VM/boot.sh's systemd
# boots (vm-run.sh --systemd runs it as a service once multi-user.target is
# reached; the VM powers off when it ends). Collects what the host judges
# into WORK/CASE/: the state of the boot, the units, the VT's mode and a
# screendump of the console login; in case plymouth also purges the .deb
# (dpkg --purge fbanim) and lists what is left of it.
case=$1
W=$2
out=$W/$case
mkdir -p "$out"
step() { # the time of each step (/proc/uptime), for the wall-time budget
    read -r up _ < /proc/uptime
    echo "$up $*" >> "$out/steps"
}
step start
systemctl is-system-running --wait > "$out/state"
step "system $(cat "$out/state")"
# The console login: getty@tty1 started, agetty has drawn its prompt.
i=0
while [ "$(systemctl is-active getty@tty1.service)" != active ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
step "getty@tty1 active"
sleep 2
"$W/kdmode" > "$out/kd-login"
"$VMRUN_SCREENDUMP" "$out/login.ppm"
step "login dumped"
systemctl --failed --no-legend --plain > "$out/failed"
systemctl is-active multi-user.target getty@tty1.service > "$out/active"
for u in fbanim-splash fbanim-quit fbanim-quit-wait getty@tty1 plymouth-start; do
    systemctl show "$u.service" -p ActiveState -p SubState -p Result -p ExecMainCode -p ExecMainStatus \
        -p ActiveEnterTimestampMonotonic -p InactiveExitTimestampMonotonic -p CPUUsageNSec \
        -p ConditionResult > "$out/$u.show"
done
systemd-analyze > "$out/analyze" 2>&1
cat /var/lib/fbanim/boot-history > "$out/history" 2>&1
step "units shown"
journalctl -b --no-pager -o short-monotonic > "$out/journal-boot"
step "journal saved"

if [ "$case" = main ]; then
    # A splash with no display at all (a headless board with `splash` on its
    # command line), as a Type=notify unit like fbanim-splash.service, told
    # to quit at the end of the boot as fbanim-quit.service does: its unit
    # must end inactive, not failed. PrivateDevices=yes: a /dev without
    # /dev/dri and /dev/fb0.
    step "headless splash"
    # RemainAfterExit=yes keeps the unit loaded (and its result) after a
    # good end, as a failed one is kept.
    systemd-run --no-block --unit=boottest-headless -p Type=notify -p NotifyAccess=main \
        -p RemainAfterExit=yes -p PrivateDevices=yes /usr/bin/fbanim splash > /dev/null 2>&1
    i=0
    while ! fbanim ctl ping 2> /dev/null && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    systemctl show boottest-headless.service -p ActiveState > "$out/headless.before"
    fbanim ctl quit 2> /dev/null
    echo $? > "$out/headless.quit-rc"
    i=0
    while [ $i -lt 50 ]; do
        [ "$(systemctl show -p MainPID --value boottest-headless.service)" = 0 ] &&
            [ "$(systemctl show -p ActiveState --value boottest-headless.service)" != activating ] && break
        sleep 0.1
        i=$((i + 1))
    done
    systemctl show boottest-headless.service -p ActiveState -p Result -p ExecMainStatus > "$out/headless.show"
    journalctl -b --no-pager -o cat -u boottest-headless.service > "$out/headless.journal"
    step "headless splash done"
fi

if [ "$case" = faults ]; then
    # VT_AUTO again once the splash has quit; the FIFO never made; the
    # history as prepare.sh left it (the splash could not write it).
    "$W/kdmode" --vt > "$out/vt-login"
    journalctl -b --no-pager -o short-monotonic -u fbanim-splash.service > "$out/splash.journal"
    ls -l /run/psplash_fifo > "$out/fifo" 2>&1
fi

if [ "$case" = plymouth ]; then
    # What a system that ran fbanim keeps, made by fbanim itself: the boot
    # history (written at quit, here by a short splash on a simulated
    # display beside plymouthd, on a socket of its own) and a board profile
    # an administrator added.
    FBANIM_PLYMOUTH_SOCKET=boottest fbanim splash --device sim:64x64 --duration 0.5 > /dev/null 2>&1
    mkdir -p /etc/fbanim/boards
    echo 'initramfs-modules = bochs' > /etc/fbanim/boards/qemu.conf
    ls -d /var/lib/fbanim/boot-history /etc/fbanim/boards/qemu.conf > "$out/before-purge" 2>&1
    dpkg -L fbanim > "$out/files" 2>&1
    step "purging"
    dpkg --purge fbanim > "$out/purge.log" 2>&1
    echo $? > "$out/purge.rc"
    step "purged"
    dpkg-query -W -f='${Status}\n' fbanim > "$out/status-after" 2>&1
    # Every path the package had that is still there, but directories
    # other packages share (/usr/bin, /lib: a link to usr/lib...).
    while read -r f; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        if [ -d "$f" ]; then case $f in */fbanim | */fbanim/*) ;; *) continue ;; esac; fi
        echo "$f"
    done < "$out/files" > "$out/left-files"
    ls -d /etc/fbanim /var/lib/fbanim /run/fbanim /usr/share/fbanim /usr/share/doc/fbanim \
        /var/lib/dpkg/info/fbanim.* > "$out/left-dirs" 2> /dev/null
    find /etc/systemd /lib/systemd/system /run/systemd/system /var/lib/systemd /etc/udev /lib/udev \
        /etc/initramfs-tools /usr/share/initramfs-tools -name '*fbanim*' > "$out/left-found" 2> /dev/null
    systemctl list-unit-files --no-legend 'fbanim*' > "$out/left-unit-files" 2>&1
    systemctl list-units --all --no-legend --plain 'fbanim*' > "$out/left-units" 2>&1
fi
step end
exit 0
