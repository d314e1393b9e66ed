#!/usr/bin/env bash
# Tests/VM/boot.sh: fbanim as the boot splash on real kernel drivers, booted
# as a user boots: the Debian package installed, systemd as PID 1, an
# initramfs made by mkinitramfs with the package's hook, in QEMU with the
# harness (harness/vm-run.sh), the emulated monitor dumped while it runs.
#
# Six boots (bochs-drm at 480x320 in each):
#
#   handover   (the harness's chroot, no systemd) fbanim splash driven by
#              fbanim ctl: deactivate, a second DRM master draws (fbdrm-test,
#              fbanim radar), quit --retain, reactivate, on DRM and fbdev,
#              with screendumps every 100 ms (boot/dumploop.c); the VT
#              switched to text behind the splash's back (boot/handover.sh)
#   initramfs  mkinitramfs -d CONFDIR with the package's hook and scripts
#              and a board naming the bochs and virtio-gpu modules; kernel
#              command line `splash`, a root that never appears: the splash
#              while the initramfs waits, the VM time of its first frame
#   main       systemd with the package installed (boot/prepare.sh), kernel
#              command line `splash quiet` and what docs/boot-splash.md
#              tells users: the splash before sysinit.target, the ring
#              advancing, fbanim-quit before getty@tty1, the login prompt on
#              the console in KD_TEXT afterwards, READY=1, no failed unit,
#              the time to the first frame and the splash's CPU; then
#              `systemctl poweroff`: the power-off splash while systemd
#              shuts down
#   plymouth   the same with Plymouth installed and enabled: the splash unit
#              stands down (ExecCondition), nothing fails; the package
#              installed with dpkg -i in the guest and purged there
#              (dpkg --purge): nothing of fbanim left
#   late       --late-display, the driver 6 s late: the splash waits (one
#              line), shows when the display comes; then SIGKILL to it
#              mid-boot: ExecStopPost gives the console back (KD_TEXT) and
#              the boot reaches multi-user.target and the console login;
#              the VT the dead splash held in VT_PROCESS still switches
#   faults     as main, with faults under the splash (boot/faults.sh): a
#              garbage fbanim.conf, /run and /var/lib/fbanim read-only to
#              it, DRM master taken from it without deactivate, a VT switch
#              to tty2 and back (VT_PROCESS), the display's driver unbound
#              and bound again; each time the splash must carry on, and
#              the boot reach its target with the console usable
#
# Prints `PASS name: detail` / `FAIL name: detail` per check, figures in
# the details, and `N passed, M failed`; exits 1 on a failure. Needs root
# (the package is installed into an overlay of / on the host for the main
# and late boots: boot/install-snapshot.sh), what harness/install.sh
# installs, and mkinitramfs. Environment: FBANIM_BIN (a static fbanim;
# default: build one as run.sh does), FBANIM_VM_DIR (another harness
# folder), FBANIM_VM_KEEP=1 (keep the work folder: pictures, journals,
# consoles), FBANIM_BOOT_ONLY="handover initramfs main plymouth late faults" (some
# boots only). Run by Tests/VM/run.sh (FBANIM_VM_ONLY=boot: only this).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
vm=${FBANIM_VM_DIR:-$here/harness}
bt=$here/boot
started=$(date +%s)
passed=0 failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { # check NAME DETAIL COMMAND...: PASS when the command succeeds
    local name=$1 detail=$2
    shift 2
    if "$@"; then pass "$name${detail:+: $detail}"; else fail "$name${detail:+: $detail}"; fi
}
finish() {
    echo "boot tests took $(($(date +%s) - started)) s"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit
}
[ -x "$vm/vm-run.sh" ] || { fail "boot-harness: no $vm/vm-run.sh"; finish; }
command -v qemu-system-x86_64 > /dev/null || { fail "boot-harness: qemu-system-x86_64 missing (run $vm/install.sh)"; finish; }
[ "$(id -u)" = 0 ] || { fail "boot-harness: needs root (dpkg into an overlay of /, mkinitramfs)"; finish; }

work=$(mktemp -d "${TMPDIR:-/tmp}/fbanim-boot.XXXXXX")
chmod 755 "$work"
if [ "${FBANIM_VM_KEEP:-0}" = 1 ]; then echo "work folder: $work"; else trap 'rm -rf "$work"' EXIT; fi
only=" ${FBANIM_BOOT_ONLY:-handover initramfs main plymouth late faults} "
want() { [[ $only == *" $1 "* ]]; }

# ---------------------------------------------------------------- the parts
bin=${FBANIM_BIN:-}
if [ -z "$bin" ]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product fbanim \
        --scratch-path "$root/.build/vm-static" > "$work/build.log" 2>&1) || {
        cat "$work/build.log"
        fail "boot-build: swift build"
        finish
    }
    bin=$root/.build/vm-static/release/fbanim
fi
bin=$(realpath "$bin")
install -m 755 "$bin" "$work/fbanim"
deb=$(cd "$root" && FBANIM_BIN=$bin ./Scripts/build-deb.sh 2> "$work/build-deb.log" | tail -n 1)
if [ -f "$deb" ]; then
    pass "boot-deb: $(basename "$deb"), $(($(stat -c %s "$deb") / 1024)) KiB, Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB"
else
    fail "boot-deb: Scripts/build-deb.sh printed '$deb' ($(tail -n 2 "$work/build-deb.log" | tr '\n' ' '))"
    finish
fi
# shellcheck disable=SC2046 # pkg-config's words, split on purpose
gcc -O2 -o "$work/kdmode" "$here/kdmode.c" &&
    gcc -O2 -Wall -o "$work/dumploop" "$bt/dumploop.c" &&
    gcc -O2 -o "$work/fbdrm-test" "$vm/fbdrm-test.c" $(pkg-config --cflags --libs libdrm) &&
    gcc -O2 -Wall -o "$work/steal-master" "$bt/steal-master.c" $(pkg-config --cflags --libs libdrm) || {
    fail "boot-helpers: cannot compile kdmode.c, dumploop.c, fbdrm-test.c, steal-master.c"
    finish
}
judge() { python3 "$bt/judge.py" "$@"; }
kind() { judge "$1" 2> /dev/null | awk '{ print $2 }'; }           # FILE: ring, console, black...
progress() { judge "$1" 2> /dev/null | sed -n 's/.* p=\([0-9.]*\).*/\1/p'; } # FILE: the ring's p
is() { [ "$(cat "$1" 2> /dev/null)" = "$2" ]; }
val() { sed -n "s/^$2=//p" "$1" 2> /dev/null; }                    # FILE KEY: systemctl show's value
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 < b + 0) }'; }
# jt FILE TEXT: the monotonic time (s) of the journal's first line holding TEXT
jt() { grep -F -m1 -- "$2" "$1" 2> /dev/null | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'; }
# jn FILE TEXT: the number of the journal's first line holding TEXT
jn() { grep -n -F -m1 -- "$2" "$1" 2> /dev/null | cut -d: -f1; }
# ct FILE TEXT: the host time (s since QEMU started) of the console's first line holding TEXT
ct() { sed 's/\x1b\[[0-9;]*m//g' "$1" 2> /dev/null | grep -F -m1 -- "$2" | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'; }
secs() { awk -v us="$1" 'BEGIN { if (us == "" || us == 0) print ""; else printf "%.2f", us / 1e6 }'; }
boot_time() { echo "$(($(date +%s%N) / 1000000 - $1)) ms"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# A systemd boot of the harness with the package: prepare.sh, the kernel
# command line of the docs, the journal and the console (host-stamped).
systemd_boot() { # CASE [vm-run options...]
    local c=$1
    shift
    "$vm/vm-run.sh" --systemd --display bochs --size 480x320 --rw "$work" --timeout 300 \
        --prepare "$bt/prepare.sh" --env BOOTTEST_CASE="$c" --env BOOTTEST_WORK="$work" \
        --env BOOTTEST_DIR="$bt" --env BOOTTEST_DEB="$deb" \
        --journal "$work/$c.journal" --console "$work/$c.console" --console-times \
        "$@" -- sh "$bt/guest-systemd.sh" "$c" "$work" > "$work/$c.log" 2>&1
}
# What docs/boot-splash.md tells users to put on the kernel command line
# (`splash`, `quiet`; no cursor, no blanking, no logo; plymouth.enable=0
# where Plymouth stays installed but switched off).
cmdline="splash quiet vt.global_cursor_default=0 consoleblank=0 logo.nologo"

# The package installed with dpkg into an overlay of / on the host: what it
# changed, for the main and late boots to unpack (prepare.sh).
if want main || want late || want faults; then
    "$bt/install-snapshot.sh" "$deb" "$work/installed.tar" > "$work/install-snapshot.log" 2>&1 ||
        fail "boot-install-snapshot: dpkg -i in an overlay of / ($(tail -n 3 "$work/install-snapshot.log" | tr '\n' ' '))"
fi

# ------------------------------------------------------------- handover
if want handover; then
    t0=$(now_ms)
    "$vm/vm-run.sh" --display bochs --size 480x320 --rw "$work" --timeout 240 \
        -- sh "$bt/handover.sh" "$work" > "$work/handover.log" 2>&1
    rc=$?
    check handover-vm "guest script ran ($(boot_time "$t0"), status $rc)" test $rc = 0
    o=$work/handover
    # dumps NAME: the classes of a dumploop series, in order, as "ring ring split..."
    dumps() { for f in "$o/$1"-[0-9][0-9][0-9].ppm; do kind "$f"; done | tr '\n' ' '; }
    runs() { echo "$1" | tr ' ' '\n' | grep . | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }'; }
    cadence() { awk '{ if (NR > 1) { s += $2 - p; n++ } p = $2 } END { if (n) printf "%.0f ms", 1000 * s / n }' "$o/$1.log" 2> /dev/null; }
    # only WORD... in a series: nothing else, each present, in this order
    series_is() { # SERIES WORD...
        local s=$1
        shift
        [ -n "$s" ] && echo "$s" | tr ' ' '\n' | grep . | uniq | tr '\n' ' ' | grep -qx "$* "
    }
    ctls() { for n in "$@"; do is "$o/$n.rc" 0 || return 1; done; }

    back=$(progress "$o/reactivate-back.ppm")
    check handover-reactivate "ctl deactivate, fbdrm-test drew ($(kind "$o/reactivate-second.ppm")), exited ($(cat "$o/reactivate-second.rc" 2> /dev/null)); ctl progress 95, reactivate: 1 s later $(kind "$o/reactivate-back.ppm") at p=$back (want the ring redrawn at >= 0.9; before: $(kind "$o/reactivate-before.ppm") p=$(progress "$o/reactivate-before.ppm"), in between: $(kind "$o/reactivate-gap.ppm"))" \
        eval 'ctls reactivate-deactivate reactivate-progress reactivate-reactivate &&
              [ "$(kind "$o/reactivate-second.ppm")" = split ] && [ "$(kind "$o/reactivate-back.ppm")" = ring ] && ! lt "$back" 0.9'
    check handover-reactivate-quit "ctl quit after: splash exit $(cat "$o/reactivate.rc" 2> /dev/null), VT $(cat "$o/reactivate.kd-after" 2> /dev/null)" \
        eval 'ctls reactivate-quit reactivate && is "$o/reactivate.kd-after" text'

    s=$(dumps drm-second)
    check handover-drm-second "DRM: ctl deactivate, fbdrm-test becomes master and draws, ctl quit --retain: $(runs "$s") in $(echo "$s" | wc -w) dumps every $(cadence drm-second) (want the ring, then the second program's picture, nothing else); splash exit $(cat "$o/drm-second.rc" 2> /dev/null)" \
        eval 'series_is "$s" ring split && ctls drm-second-deactivate drm-second-quit drm-second'

    s=$(dumps drm-retain)
    t_start=$(grep -m1 'next program starts' "$o/events" 2> /dev/null | cut -d' ' -f1)
    t_exit=$(grep -m1 'drm-retain: splash exited' "$o/events" 2> /dev/null | cut -d' ' -f1)
    check handover-drm-retain "DRM: ctl quit --retain with no one to take over (the splash keeps the device open), then fbanim radar sets its mode: $(runs "$s") in $(echo "$s" | wc -w) dumps every $(cadence drm-retain) (want the ring, then the radar, nothing else); the splash exited $(awk -v a="$t_start" -v b="$t_exit" 'BEGIN { printf "%.2f", b - a }') s after the radar started, status $(cat "$o/drm-retain.rc" 2> /dev/null); radar exit $(cat "$o/drm-retain-radar.rc" 2> /dev/null)" \
        eval 'series_is "$s" ring radar && ctls drm-retain-quit drm-retain drm-retain-radar && lt "$t_start" "$t_exit"'

    s=$(dumps fb-retain)
    t_exit=$(grep -m1 'fb-retain: splash exited' "$o/events" 2> /dev/null | cut -d' ' -f1)
    t_last=$(tail -n 1 "$o/fb-retain.log" 2> /dev/null | cut -d' ' -f2)
    check handover-fb-retain "fbdev: ctl quit --retain, nobody takes over: splash exit $(cat "$o/fb-retain.rc" 2> /dev/null); $(runs "$s") in $(echo "$s" | wc -w) dumps up to $(awk -v a="$t_exit" -v b="$t_last" 'BEGIN { printf "%.1f", b - a }') s after the exit (want only the ring, >= 1.8 s after); VT $(cat "$o/fb-retain.kd-after" 2> /dev/null) after, $(cat "$o/fb-retain.kd-later" 2> /dev/null) 2 s later (want graphics)" \
        eval 'series_is "$s" ring && ctls fb-retain-quit fb-retain && is "$o/fb-retain.kd-after" graphics &&
              is "$o/fb-retain.kd-later" graphics && ! lt "$(awk -v a="$t_exit" -v b="$t_last" "BEGIN { print b - a }")" 1.8'

    ms=$(tail -n 1 "$o/fb-console.taken-back" 2> /dev/null)
    check handover-fb-console "fbdev: VT switched to KD_TEXT behind the splash: $(head -n 1 "$o/fb-console.taken-back" 2> /dev/null) again after $ms ms (want graphics within 1000 ms), then $(kind "$o/fb-console-after.ppm") on screen (before: $(kind "$o/fb-console-before.ppm")); ctl quit: exit $(cat "$o/fb-console.rc" 2> /dev/null), VT $(cat "$o/fb-console.kd-after" 2> /dev/null)" \
        eval 'head -n 1 "$o/fb-console.taken-back" | grep -qx graphics && [ "${ms:-99999}" -le 1000 ] &&
              [ "$(kind "$o/fb-console-after.ppm")" = ring ] && ctls fb-console-quit fb-console && is "$o/fb-console.kd-after" text'

    check handover-run-full "/run full for the splash ($(grep -m1 boottest-full "$o/run-full.err" 2> /dev/null | awk '{ print "inodes " $2 " used " $3 " free " $4 }')): '$(grep -F 'psplash' "$o/run-full.err" 2> /dev/null | head -n 1 | cut -c 1-160)' ($(grep -c -F 'psplash' "$o/run-full.err" 2> /dev/null) line), $(kind "$o/run-full.ppm") on screen (want ring); ctl quit $(cat "$o/run-full-quit.rc" 2> /dev/null), exit $(cat "$o/run-full.rc" 2> /dev/null), VT $(cat "$o/run-full.kd-after" 2> /dev/null)" \
        eval '[ "$(grep -c -F "no psplash FIFO" "$o/run-full.err")" = 1 ] && grep -q "No space left" "$o/run-full.err" &&
              [ "$(kind "$o/run-full.ppm")" = ring ] && ctls run-full-quit run-full && is "$o/run-full.kd-after" text'
fi

# ------------------------------------------------------------- initramfs
if want initramfs; then
    # A conf dir for mkinitramfs -d: the package's hook and scripts as the
    # package installs them (from the .deb, the hook pointed at the
    # extracted files: the paths it reads are its first lines, as
    # Scripts/install.sh rewrites them), /etc/fbanim/fbanim.conf naming a
    # board `qemu` whose initramfs-modules are QEMU's display drivers (docs:
    # "For developers"), and a probe (not fbanim's) that prints on the
    # serial console when the splash's log says it shows.
    ird=$work/initramfs
    st=$ird/stage
    conf=$ird/conf
    mkdir -p "$st" "$conf/hooks" "$conf/scripts/init-top" "$conf/scripts/init-bottom" "$conf/scripts/panic"
    dpkg-deb -x "$deb" "$st"
    echo 'initramfs-modules = bochs virtio-gpu' > "$st/usr/share/fbanim/boards/qemu.conf"
    echo 'board = qemu' >> "$st/etc/fbanim/fbanim.conf"
    printf 'MODULES=list\nBUSYBOX=y\nCOMPRESS=zstd\nRUNSIZE=10%%\nFSTYPE=auto\n' > "$conf/initramfs.conf"
    : > "$conf/modules"
    sed -e "s|^FBANIM_BIN=.*|FBANIM_BIN=$st/usr/bin/fbanim|" -e "s|^FBANIM_SHARE=.*|FBANIM_SHARE=$st/usr/share/fbanim|" \
        -e "s|^FBANIM_ETC=.*|FBANIM_ETC=$st/etc/fbanim|" "$st/usr/share/initramfs-tools/hooks/fbanim" > "$conf/hooks/fbanim"
    for s in init-top init-bottom panic; do
        cp "$st/usr/share/initramfs-tools/scripts/$s/fbanim" "$conf/scripts/$s/fbanim"
    done
    cp "$bt/initramfs-probe" "$conf/scripts/init-top/zz-boottest-probe"
    chmod 755 "$conf/hooks/fbanim" "$conf/scripts"/*/*
    kver=$(find /boot -maxdepth 1 -name 'vmlinuz-*' -printf '%f\n' | sed 's/^vmlinuz-//' | sort -V | tail -n 1)
    t0=$(now_ms)
    if mkinitramfs -d "$conf" -o "$ird/initrd.img" "$kver" > "$ird/mkinitramfs.log" 2>&1; then
        lsinitramfs "$ird/initrd.img" > "$ird/contents" 2> /dev/null
        has() { grep -q -- "$1" "$ird/contents"; }
        check initramfs-build "mkinitramfs -d CONFDIR $kver: $(boot_time "$t0"), $(($(stat -c %s "$ird/initrd.img") / 1024)) KiB, holds fbanim, its conf, the qemu board, bochs.ko, virtio-gpu.ko, the scripts" \
            eval 'has "^usr/bin/fbanim$" && has "^etc/fbanim/fbanim.conf$" && has "^usr/share/fbanim/boards/qemu.conf$" &&
                  has "/bochs.ko" && has "/virtio-gpu.ko" && has "scripts/init-top/fbanim$" && has "scripts/init-bottom/fbanim$" && has "scripts/panic/fbanim$"'
        # Dumps every 0.5 s of VM time while the initramfs waits for a root
        # that never comes (no rootdelay: it gives up 30 s after init-top).
        # Plymouth is installed on this machine, so its hook put plymouthd in
        # the initramfs: plymouth.enable=0, as the docs say.
        args=()
        for ((k = 4; k <= 36; k++)); do args+=(--screendump "$ird/dump-$k.ppm" --at-vm-seconds "$((k / 2)).$((k % 2 * 5))"); done
        t0=$(now_ms)
        "$vm/vm-run.sh" --initrd "$ird/initrd.img" --display bochs --size 480x320 \
            --append "root=/dev/vdz $cmdline plymouth.enable=0" --timeout 19 --expect-timeout \
            --console "$ird/console" --console-times "${args[@]}" > "$ird/vm.log" 2>&1
        rc=$?
        first="" firstk="" after=""
        for ((k = 4; k <= 36; k++)); do
            c=$(kind "$ird/dump-$k.ppm")
            # shellcheck disable=SC2034 # firstk is read in the check's eval
            if [ -z "$first" ] && [ "$c" = ring ]; then first=$((k / 2)).$((k % 2 * 5)) firstk=$k; fi
            [ -n "$first" ] && after+="$c "
        done
        probe=$(grep -m1 'boottest-probe:' "$ird/console" 2> /dev/null)
        check initramfs-splash "root=/dev/vdz: the ring in the dump at VM $first s and every dump after it to 18 s ($(echo "$after" | wc -w) dumps: $(echo "$after" | tr ' ' '\n' | grep . | sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }')); first frame: ${first:-none} s of VM time by the dumps, the probe: ${probe:-nothing}; VM ended at the timeout as expected (status $rc, $(boot_time "$t0"))" \
            eval '[ $rc = 0 ] && [ -n "$first" ] && [ -z "$(echo "$after" | tr " " "\n" | grep . | grep -vx ring)" ] && [ "$firstk" -lt 36 ]'
    else
        fail "initramfs-build: mkinitramfs failed: $(tail -n 3 "$ird/mkinitramfs.log" | tr '\n' ' ')"
    fi
fi

# ------------------------------------------------------------- main
if want main; then
    o=$work/main
    mkdir -p "$o"
    args=()
    for k in $(seq 6 1 45); do args+=(--screendump "$o/boot-$k.ppm" --at-vm-seconds "$k"); done
    t0=$(now_ms)
    systemd_boot main --env BOOTTEST_INSTALLED="$work/installed.tar" --append "$cmdline plymouth.enable=0" "${args[@]}"
    rc=$?
    j=$work/main.journal
    check main-boot "systemd boot with the package, plymouth-start masked, kernel command line '$cmdline plymouth.enable=0': $(cat "$o/state" 2> /dev/null), $(head -n 1 "$o/analyze" 2> /dev/null) ($(boot_time "$t0") with the power-off, status $rc)" \
        eval '[ $rc = 0 ] && is "$o/state" running'
    ready=$(secs "$(val "$o/fbanim-splash.show" ActiveEnterTimestampMonotonic)")
    shown=$(jt "$j" 'fbanim: showing on')
    sysinit=$(jt "$j" 'Reached target sysinit.target')
    # The dumps: the first with the ring, against the console's sysinit.target line (both host time).
    # The ring's progress in the boot splash's dumps (the first run of
    # rings: the power-off splash's come later).
    first="" series="" ps="" run=0
    for k in $(seq 6 1 45); do
        [ -f "$o/boot-$k.ppm" ] || continue # after the VM ended
        c=$(kind "$o/boot-$k.ppm")
        series+="$c "
        if [ "$c" = ring ] && [ $run -le 1 ]; then
            [ -n "$first" ] || first=$k
            run=1
            ps+="$(progress "$o/boot-$k.ppm") "
        elif [ $run = 1 ]; then
            run=2
        fi
    done
    csysinit=$(ct "$work/main.console" 'Reached target sysinit.target')
    check main-splash-before-sysinit "READY=1 (first frame on screen) at $ready s, fbanim's 'showing on' line at $shown s (journald's time of receipt), sysinit.target reached at $sysinit s (journal, s since the kernel started); first dump with the ring at VM ${first:-none} s, sysinit.target on the console at VM $csysinit s" \
        eval 'lt "$ready" "$sysinit" && lt "$first" "$csysinit"'
    check main-ring-advances "the boot splash's ring in the dumps each second: p = ${ps:-none} (want it growing by >= 0.1, never back by more than 0.02)" \
        python3 -c 'import sys
p = [float(x) for x in sys.argv[1:]]
sys.exit(not (len(p) >= 2 and p[-1] - p[0] >= 0.1 and all(b >= a - 0.02 for a, b in zip(p, p[1:]))))' $ps
    check main-dumps "dumps at VM 6..45 s (up to the power-off): $(echo "$series" | tr ' ' '\n' | grep . | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }') (want no picture other than the console, black and the ring)" \
        eval '! echo "$series" | grep -qw -e other -e split -e radar -e unreadable'
    quit=$(jt "$j" 'Finished fbanim-quit.service')
    getty=$(jt "$j" 'Started getty@tty1.service')
    check main-quit-before-getty "fbanim-quit.service finished at $quit s, getty@tty1.service started at $getty s (journal lines $(jn "$j" 'Finished fbanim-quit.service') and $(jn "$j" 'Started getty@tty1.service'))" \
        eval '[ -n "$quit" ] && [ -n "$getty" ] && [ "$(jn "$j" "Finished fbanim-quit.service")" -lt "$(jn "$j" "Started getty@tty1.service")" ] && ! lt "$getty" "$quit"'
    check main-login-console "after the boot: $(kind "$o/login.ppm") on screen (want console: the login prompt), VT $(cat "$o/kd-login" 2> /dev/null) (want text)" \
        eval '[ "$(kind "$o/login.ppm")" = console ] && is "$o/kd-login" text'
    cpu=$(val "$o/fbanim-splash.show" CPUUsageNSec)
    check main-splash-ready "fbanim-splash.service: READY=1 at $ready s ('Started' in the journal at $(jt "$j" 'Started fbanim-splash.service') s), Result=$(val "$o/fbanim-splash.show" Result); time from kernel start to the first frame: $ready s (READY; started at $(secs "$(val "$o/fbanim-splash.show" InactiveExitTimestampMonotonic)") s); splash CPU over the boot: $(awk -v n="$cpu" 'BEGIN { printf "%.2f s", n / 1e9 }') (CPUUsageNSec, ExecConditions included); its history: $(tr '\n' ' ' < "$o/history" 2> /dev/null)" \
        eval '[ -n "$ready" ] && [ "$(val "$o/fbanim-splash.show" Result)" = success ] && [ -n "$(jt "$j" "Started fbanim-splash.service")" ]'
    check main-no-failed-units "systemctl --failed: '$(tr '\n' ' ' < "$o/failed" 2> /dev/null)'" \
        eval '[ -f "$o/failed" ] && [ ! -s "$o/failed" ]'
    check headless-splash-quit "a splash unit (Type=notify) with no display at all (PrivateDevices=yes), told to quit while it waits: $(tr '\n' ' ' < "$o/headless.before" 2> /dev/null)before, ctl quit $(cat "$o/headless.quit-rc" 2> /dev/null), then $(tr '\n' ' ' < "$o/headless.show" 2> /dev/null)(want not failed: Result=success); its log: $(tr '\n' ' ' < "$o/headless.journal" 2> /dev/null | cut -c 1-300)" \
        eval '[ "$(val "$o/headless.show" Result)" = success ] && [ "$(val "$o/headless.show" ActiveState)" != failed ] && grep -q "waiting for a display" "$o/headless.journal"'
    gstop=$(jt "$j" 'Stopped getty@tty1.service')
    sdump=$(jt "$j" 'boottest: shutdown screendump taken')
    check main-shutdown-splash "systemctl poweroff: getty@tty1 stopped at $gstop s, fbanim-poweroff.service $(val "$o/poweroff.show" ActiveState), dump at $sdump s: $(kind "$o/shutdown.ppm") (want the ring), VT $(cat "$o/shutdown.kd" 2> /dev/null) (want graphics)" \
        eval '[ "$(kind "$o/shutdown.ppm")" = ring ] && is "$o/shutdown.kd" graphics && lt "$gstop" "$sdump"'
fi

# ------------------------------------------------------------- plymouth + the package in the guest
if want plymouth; then
    o=$work/plymouth
    t0=$(now_ms)
    systemd_boot plymouth --append "$cmdline"
    rc=$?
    j=$work/plymouth.journal
    check plymouth-boot "systemd boot, Plymouth installed and enabled, the package installed by dpkg -i in the guest: $(cat "$o/state" 2> /dev/null) ($(boot_time "$t0"), status $rc); plymouth-start.service $(val "$o/plymouth-start.show" ActiveState)/$(val "$o/plymouth-start.show" Result)" \
        eval '[ $rc = 0 ] && is "$o/state" running'
    check plymouth-splash-stands-down "fbanim-splash.service: $(val "$o/fbanim-splash.show" ActiveState), Result=$(val "$o/fbanim-splash.show" Result), journal: '$(grep -m1 -o 'fbanim-splash.service: Skipped.*' "$j" 2> /dev/null)'; fbanim never showed ($(grep -c 'fbanim: showing on' "$j" 2> /dev/null) 'showing on' lines)" \
        eval '[ "$(val "$o/fbanim-splash.show" Result)" = exec-condition ] && [ "$(val "$o/fbanim-splash.show" ActiveState)" = inactive ] &&
              grep -q "fbanim-splash.service: Skipped due to .exec-condition" "$j" && ! grep -q "fbanim: showing on" "$j"'
    check plymouth-no-failed-units "systemctl --failed: '$(tr '\n' ' ' < "$o/failed" 2> /dev/null)'" \
        eval '[ -f "$o/failed" ] && [ ! -s "$o/failed" ]'
    empty() { [ -f "$1" ] && [ ! -s "$1" ]; }
    check deb-purge "dpkg --purge fbanim in the guest: status $(cat "$o/purge.rc" 2> /dev/null), dpkg-query: '$(tr '\n' ' ' < "$o/status-after" 2> /dev/null)'; before it: $(wc -l < "$o/files" 2> /dev/null) paths, $(tr '\n' ' ' < "$o/before-purge" 2> /dev/null); left: files '$(tr '\n' ' ' < "$o/left-files" 2> /dev/null)' dirs '$(tr '\n' ' ' < "$o/left-dirs" 2> /dev/null)' found '$(tr '\n' ' ' < "$o/left-found" 2> /dev/null)' unit files '$(tr '\n' ' ' < "$o/left-unit-files" 2> /dev/null)'" \
        eval 'is "$o/purge.rc" 0 && ! grep -q "install ok" "$o/status-after" && [ "$(wc -l < "$o/files")" -gt 20 ] &&
              [ "$(wc -l < "$o/before-purge")" = 2 ] && empty "$o/left-files" && empty "$o/left-dirs" && empty "$o/left-found" &&
              ! grep -q fbanim "$o/left-unit-files"'
    check deb-purge-units "units systemd still knows of after the purge: '$(tr '\n' ' ' < "$o/left-units" 2> /dev/null)' (want none)" \
        eval '[ -f "$o/left-units" ] && ! grep -q fbanim "$o/left-units"'
fi

# ------------------------------------------------------------- late display + SIGKILL
if want late; then
    o=$work/late
    t0=$(now_ms)
    systemd_boot late --late-display --env BOOTTEST_INSTALLED="$work/installed.tar" --append "$cmdline plymouth.enable=0"
    rc=$?
    j=$work/late.journal
    waits=$(grep -c 'fbanim: waiting for a display' "$j" 2> /dev/null)
    wait_t=$(jt "$j" 'fbanim: waiting for a display')
    drv=$(jt "$j" 'Initialized bochs')
    shown=$(jt "$j" 'fbanim: showing on')
    ready=$(jt "$j" 'Started fbanim-splash.service')
    check late-display-waits "splash started at $(jt "$j" 'Starting fbanim-splash.service') s, $waits line(s) '$(grep -m1 -o 'fbanim: waiting for a display.*' "$j" 2> /dev/null)' at $wait_t s; bochs-drm initialized at $drv s; 'showing on' at $shown s, READY at $ready s" \
        eval '[ "$waits" = 1 ] && lt "$wait_t" "$drv" && lt "$drv" "$shown" && ! lt "$ready" "$shown"'
    check late-display-shows "dump once the unit was ready: $(kind "$o/shown.ppm") (want the ring), VT $(cat "$o/kd-before-kill" 2> /dev/null)" \
        eval '[ "$(kind "$o/shown.ppm")" = ring ] && is "$o/kd-before-kill" graphics'
    check sigkill-console "SIGKILL to the splash at $(cat "$o/kill-uptime" 2> /dev/null) s: unit $(val "$o/killed.show" ActiveState), Result=$(val "$o/killed.show" Result), ExecMainStatus=$(val "$o/killed.show" ExecMainStatus); VT $(cat "$o/kd-after-kill" 2> /dev/null) after ExecStopPost (want text), screen: $(kind "$o/after-kill.ppm")" \
        eval 'is "$o/kd-after-kill" text && [ "$(val "$o/killed.show" Result)" = signal ]'
    check sigkill-boot-goes-on "the boot after it: $(cat "$o/state" 2> /dev/null) (status $rc, $(boot_time "$t0")), multi-user.target and getty@tty1: $(tr '\n' ' ' < "$o/active" 2> /dev/null); failed: '$(tr '\n' ' ' < "$o/failed" 2> /dev/null)' (want only the killed splash); login screen: $(kind "$o/login.ppm"), VT $(cat "$o/kd-login" 2> /dev/null)" \
        eval '[ $rc = 0 ] && [ "$(tr "\n" " " < "$o/active")" = "active active " ] &&
              [ "$(awk "{ print \$1 }" "$o/failed")" = fbanim-splash.service ] && [ "$(kind "$o/login.ppm")" = console ] && is "$o/kd-login" text'
    check sigkill-vt-switches "the splash owned its VT's switches ($(cat "$o/vt-before-kill" 2> /dev/null), want VT_PROCESS) and was SIGKILLed: kdmode --chvt 2 then 1 (VT_ACTIVATE, VT_WAITACTIVE, 20 s at most): '$(tr '\n' ' ' < "$o/chvt2" 2> /dev/null)' then '$(tr '\n' ' ' < "$o/chvt1" 2> /dev/null)' (want tty2 shown, then tty1: the kernel gave the dead owner's VT back to VT_AUTO)" \
        eval 'is "$o/vt-before-kill" "vt 1 process" && [ "$(tail -n 1 "$o/chvt2")" = "vt 2 auto" ] && [ "$(tail -n 1 "$o/chvt1")" = "vt 1 auto" ]'
fi

# ------------------------------------------------------------- faults under the splash
if want faults; then
    o=$work/faults
    t0=$(now_ms)
    # A longer limit than the other boots: the faults take ~1 min of VM
    # time on top of the boot (more on a loaded machine).
    systemd_boot faults --timeout 600 --env BOOTTEST_INSTALLED="$work/installed.tar" --append "$cmdline plymouth.enable=0"
    rc=$?
    j=$o/splash.journal
    sj() { grep -F -- "$1" "$j" 2> /dev/null; } # the splash's log lines holding TEXT
    ev() { grep -F -m1 -- "$1" "$o/events" 2> /dev/null | cut -d' ' -f1; }
    span() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") print "?"; else printf "%.1f", b - a }'; }
    check faults-boot "systemd boot with the faults below: $(cat "$o/state" 2> /dev/null), $(head -n 1 "$o/analyze" 2> /dev/null) ($(boot_time "$t0"), status $rc); fault steps: $(awk '{ printf "%s%s", (NR > 1 ? " | " : ""), $0 }' "$o/events" 2> /dev/null | cut -c 1-900)" \
        eval '[ $rc = 0 ] && is "$o/state" running && grep -q " done$" "$o/events"'
    check faults-conf-garbage "/etc/fbanim/fbanim.conf of garbage: $(sj fbanim.conf | wc -l) log line(s) about it: '$(sj fbanim.conf | head -n 1 | cut -c 1-200)'; the default ring on screen: $(kind "$o/start.ppm") (want ring)" \
        eval '[ "$(sj fbanim.conf | wc -l)" = 1 ] && sj fbanim.conf | grep -q "file ignored" && [ "$(kind "$o/start.ppm")" = ring ]'
    check faults-run-readonly "/run read-only to the splash: '$(sj 'psplash FIFO' | head -n 1 | cut -c 1-200)'; /run/psplash_fifo: '$(cat "$o/fifo" 2> /dev/null | cut -c 1-80)'; READY=1 all the same (Result=$(val "$o/fbanim-splash.show" Result))" \
        eval '[ "$(sj "no psplash FIFO" | wc -l)" = 1 ] && sj "no psplash FIFO" | grep -q "going on" && grep -q "No such file" "$o/fifo" &&
              [ "$(val "$o/fbanim-splash.show" Result)" = success ] && [ -n "$(val "$o/fbanim-splash.show" ActiveEnterTimestampMonotonic)" ]'
    check faults-state-readonly "/var/lib/fbanim read-only to the splash: '$(sj 'cannot keep' | head -n 1 | cut -c 1-200)'; the history after: $(tr '\n' ' ' < "$o/history" 2> /dev/null) (want prepare.sh's, units 30)" \
        eval 'sj "cannot keep the boot" | grep -q "guesses again" && grep -qx "units 30" "$o/history"'
    t_steal=$(ev "steal: master taken") t_exit=$(ev "steal: steal-master exited") t_back=$(ev "steal: the splash says 'back'")
    check faults-master-stolen "DRM master taken behind the splash's back ($(head -n 1 "$o/steal.out" 2> /dev/null)), its picture held 8 s: $(kind "$o/steal-held.ppm") on screen (want split), exit $(cat "$o/steal.rc" 2> /dev/null); the splash: '$(sj 'another program took' | head -n 1 | sed 's/.*fbanim: //' | cut -c 1-160)'; its CPU while held: $(cat "$o/cpu-stolen" 2> /dev/null) ticks of 1/100 s in $(span "$t_steal" "$t_exit") s (while drawing: $(cat "$o/cpu-drawing" 2> /dev/null) in 4 s); 'took ... back' seen $(span "$t_exit" "$t_back") s after steal-master ended; then $(kind "$o/steal-after.ppm") (want ring); same process throughout: $(val "$o/splash-end.show" NRestarts) restarts" \
        eval 'grep -q "dropped master" "$o/steal.out" && grep -q READY "$o/steal.out" && [ "$(kind "$o/steal-held.ppm")" = split ] && is "$o/steal.rc" 0 &&
              [ -n "$(sj "another program took")" ] && [ "$(kind "$o/steal-after.ppm")" = ring ] &&
              [ "$(cat "$o/cpu-stolen")" -lt 100 ] && [ -n "$t_back" ]'
    t_chvt=$(ev "vt: chvt 1") t_vexit=$(ev "vt: fbdrm-test exited") t_vback=$(ev "vt: the splash says 'back'")
    check faults-vt-switch "splash's VT: $(tail -n 1 "$o/vt-start" 2> /dev/null) (want VT_PROCESS); chvt 2: '$(tr '\n' ' ' < "$o/vt-away" 2> /dev/null)' (want shown, text, auto) '$(sj 'switched away' | head -n 1 | sed 's/.*fbanim: //' | cut -c 1-100)', $(kind "$o/vt-away.ppm") on screen; fbdrm-test on tty2: $(kind "$o/vt-second.ppm"); chvt 1 while it holds the display: '$(tr '\n' ' ' < "$o/vt-back" 2> /dev/null)', $(kind "$o/vt-back-held.ppm") on screen, the splash's CPU while waiting: $(cat "$o/cpu-vt-held" 2> /dev/null) ticks in $(span "$t_chvt" "$t_vexit") s; 'took ... back' $(span "$t_vexit" "$t_vback") s after fbdrm-test ended; then $(kind "$o/vt-after.ppm") (want ring), $(tr '\n' ' ' < "$o/vt-after" 2> /dev/null)" \
        eval 'is "$o/vt-start" "graphics
vt 1 process" && [ "$(tail -n 1 "$o/vt-away")" = "vt 2 auto" ] && [ "$(kind "$o/vt-second.ppm")" = split ] &&
              [ "$(tail -n 1 "$o/vt-back")" = "vt 1 process" ] && [ -n "$(sj "switched away")" ] && [ -n "$(sj "back on the splash")" ] &&
              [ "$(kind "$o/vt-after.ppm")" = ring ] && is "$o/vt-after" "graphics
vt 1 process" && [ "$(cat "$o/cpu-vt-held")" -lt 100 ] && [ -n "$t_vback" ]'
    t_unbind=$(ev "unbind: 0") t_gone=$(ev "unbind: the splash says") t_bind=$(ev " bind: 0") t_shows=$(ev " bind: the splash says")
    check faults-display-rebound "the display's driver unbound (a still ring on screen: nothing presented): '$(sj 'went away' | head -n 1 | sed 's/.*fbanim: //' | cut -c 1-140)' seen $(span "$t_unbind" "$t_gone") s after (/dev/dri then: $(tr '\n' ' ' < "$o/dri-unbound" 2> /dev/null)); bound again (/dev/dri: $(tr '\n' ' ' < "$o/dri-bound" 2> /dev/null)): '$(sj 'showing on' | tail -n 1 | sed 's/.*fbanim: //')' seen $(span "$t_bind" "$t_shows") s after the bind (all it said after the unbind: $(sed -n '/went away/,$p' "$j" 2> /dev/null | grep -F 'fbanim: ' | sed 's/.*fbanim: //' | cut -c 1-80 | tr '\n' '|')); then $(kind "$o/rebound.ppm") (want ring), $(tr '\n' ' ' < "$o/vt-end" 2> /dev/null)" \
        eval '[ -n "$t_gone" ] && [ -n "$t_shows" ] && [ "$(sj "showing on /dev/dri/" | wc -l)" -ge 2 ] && [ "$(kind "$o/rebound.ppm")" = ring ] &&
              is "$o/vt-end" "graphics
vt 1 process"'
    check faults-login-console "after the boot: fbanim-quit $(val "$o/fbanim-quit.show" Result), $(kind "$o/login.ppm") on screen (want console: the login prompt), VT $(cat "$o/kd-login" 2> /dev/null) (want text), $(tail -n 1 "$o/vt-login" 2> /dev/null) (want VT_AUTO again); multi-user.target and getty@tty1: $(tr '\n' ' ' < "$o/active" 2> /dev/null)" \
        eval '[ "$(kind "$o/login.ppm")" = console ] && is "$o/kd-login" text && [ "$(tail -n 1 "$o/vt-login")" = "vt 1 auto" ] &&
              [ "$(tr "\n" " " < "$o/active")" = "active active " ]'
    check faults-no-failed-units "systemctl --failed: '$(tr '\n' ' ' < "$o/failed" 2> /dev/null)'" \
        eval '[ -f "$o/failed" ] && [ ! -s "$o/failed" ]'
fi

finish
