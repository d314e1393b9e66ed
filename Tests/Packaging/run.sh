#!/usr/bin/env bash
# Packaging tests of fbanim's boot files: builds the .deb, checks its
# contents and control data, lints it, verifies the systemd units, runs
# the units' shell snippets and the initramfs scripts against a stub
# fbanim, builds an initramfs with the hook, installs into a DESTDIR with
# Scripts/install.sh, and installs and purges the .deb in a throw-away
# root (Tests/Packaging/dpkg-roundtrip.sh). The fbanim runtime itself is
# not exercised here (the VM tests do that).
#
#   Tests/Packaging/run.sh                # as root on Debian 12
#   FBANIM_BIN=path/to/fbanim Tests/Packaging/run.sh
#
# Prints PASS name / FAIL name / SKIP name lines and
# "N passed, M failed, K skipped"; exits 1 when something failed.
# FBANIM_BIN: the fbanim to package (default .build/release/fbanim, built
# with `swift build -c release --product fbanim` when missing).
# FBANIM_PKG_KEEP=1 keeps the work folder. Needs what Scripts/setup.sh
# installs (initramfs-tools, shellcheck, lintian, binutils) and, for the
# initramfs checks, a kernel in /lib/modules (the VM tests' linux-image);
# the install/purge round trip needs root and overlayfs.
set -uo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO" || exit 1
HERE="$REPO/Tests/Packaging"

passed=0
failed=0
skipped=0
pass() {
    echo "PASS $1"
    passed=$((passed + 1))
}
fail() {
    echo "FAIL $1${2:+: $2}"
    failed=$((failed + 1))
}
skip() {
    echo "SKIP $1${2:+: $2}"
    skipped=$((skipped + 1))
}
check() { # NAME COMMAND...: PASS when the command succeeds
    local name="$1"
    shift
    if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name"; fi
}
figure() { echo "     $*"; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/fbanim-pkg.XXXXXX")"
if [ "${FBANIM_PKG_KEEP:-0}" = 1 ]; then
    echo "work folder: $WORK"
else
    trap 'rm -rf "$WORK"' EXIT
fi

VERSION="$(tr -d ' \t\r\n' <VERSION)"
ARCH="$(dpkg --print-architecture)"

# ---------------------------------------------------------------- binary
BIN="${FBANIM_BIN:-$REPO/.build/release/fbanim}"
if [ ! -x "$BIN" ]; then
    echo "building $BIN (swift build -c release --product fbanim)" >&2
    swift build -c release --product fbanim >&2 || true
fi
if [ ! -x "$BIN" ]; then
    fail binary "no fbanim at $BIN"
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 1
fi
BIN="$(realpath "$BIN")"

# ------------------------------------------------------------- build-deb
start=$(date +%s%N)
if FBANIM_BIN="$BIN" ./Scripts/build-deb.sh >"$WORK/build.out" 2>"$WORK/build.err"; then
    pass build-deb
else
    fail build-deb "$(tail -n 3 "$WORK/build.err" | tr '\n' ' ')"
fi
build_ms=$((($(date +%s%N) - start) / 1000000))
DEB="$(tail -n 1 "$WORK/build.out")"
expected="$REPO/.build/fbanim_${VERSION}_${ARCH}.deb"
if [ "$DEB" = "$expected" ] && [ -f "$DEB" ]; then
    pass build-deb-prints-path-last
else
    fail build-deb-prints-path-last "last line '$DEB', expected '$expected'"
    DEB="$expected"
fi
if [ ! -f "$DEB" ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 1
fi
figure ".deb: $(du -k "$DEB" | cut -f1) KiB, built in $((build_ms / 1000)).$((build_ms % 1000 / 100)) s from a prebuilt binary"

# -------------------------------------------------------- dpkg-deb --info
dpkg-deb --field "$DEB" >"$WORK/control"
field() { sed -n "s/^$1: //p" "$WORK/control"; }
check control-package [ "$(field Package)" = fbanim ]
check control-version-from-VERSION [ "$(field Version)" = "$VERSION" ]
check control-architecture [ "$(field Architecture)" = "$ARCH" ]
check control-installed-size [ "$(field Installed-Size)" -gt 1000 ]
check control-maintainer grep -Eq '^Maintainer: .+ <[^>]+@[^>]+>$' "$WORK/control"
check control-no-depends sh -c "! grep -q '^Depends:' '$WORK/control'"
check control-recommends-initramfs-tools grep -q '^Recommends: .*initramfs-tools' "$WORK/control"
check control-description grep -q '^Description: .\{10,80\}$' "$WORK/control"
dpkg-deb --info "$DEB" >"$WORK/info"
for s in postinst prerm postrm conffiles md5sums; do
    check "control-has-$s" grep -Eq "^ +[0-9]+ bytes, +[0-9]+ lines +(\\* +)?$s" "$WORK/info"
done
mkdir -p "$WORK/ctrl"
dpkg-deb --control "$DEB" "$WORK/ctrl"
check conffiles-lists-fbanim-conf grep -qx /etc/fbanim/fbanim.conf "$WORK/ctrl/conffiles"
check maintainer-scripts-have-units sh -c "! grep -q '@UNITS@' '$WORK'/ctrl/postinst '$WORK'/ctrl/prerm '$WORK'/ctrl/postrm && grep -q 'fbanim-splash.service' '$WORK/ctrl/postinst'"

# ---------------------------------------------------- dpkg-deb --contents
dpkg-deb --contents "$DEB" | awk '{ print $1, $2, $6 }' | sed 's| \./| /|' >"$WORK/contents"
has() { grep -qxF -e "$1 root/root $2" "$WORK/contents"; }
for f in /usr/bin/fbanim /usr/share/initramfs-tools/hooks/fbanim \
    /usr/share/initramfs-tools/scripts/init-top/fbanim \
    /usr/share/initramfs-tools/scripts/init-bottom/fbanim \
    /usr/share/initramfs-tools/scripts/panic/fbanim; do
    check "contents $f (755 root)" has -rwxr-xr-x "$f"
done
for f in /etc/fbanim/fbanim.conf /lib/udev/rules.d/99-fbanim.rules \
    /usr/share/doc/fbanim/copyright /usr/share/doc/fbanim/changelog.gz \
    /usr/share/doc/fbanim/README.md /usr/share/doc/fbanim/boot-splash.md \
    $(for u in systemd/*; do echo "/lib/systemd/system/${u##*/}"; done) \
    $(for b in boards/*.conf; do echo "/usr/share/fbanim/boards/${b##*/}"; done); do
    check "contents $f (644 root)" has -rw-r--r-- "$f"
done
check contents-nothing-else-executable sh -c "! grep -v ' /usr/bin/fbanim$\| /usr/share/initramfs-tools/' '$WORK/contents' | grep -q '^-..x'"
mkdir -p "$WORK/tree"
dpkg-deb --extract "$DEB" "$WORK/tree"
check md5sums-match sh -c "cd '$WORK/tree' && md5sum --quiet -c '$WORK/ctrl/md5sums'"
check packaged-binary-is-static sh -c "! readelf -l '$WORK/tree/usr/bin/fbanim' | grep -q 'program interpreter'"
check packaged-binary-is-stripped sh -c "! readelf -S '$WORK/tree/usr/bin/fbanim' | grep -q ' \\.symtab'"
check packaged-binary-runs "$WORK/tree/usr/bin/fbanim" --help
check changelog-debian-format sh -c "zcat '$WORK/tree/usr/share/doc/fbanim/changelog.gz' | head -n 1 | grep -qx 'fbanim ($VERSION) unstable; urgency=medium'"
check copyright-machine-readable grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$WORK/tree/usr/share/doc/fbanim/copyright"
check example-conf-all-commented sh -c "! grep -v '^#' '$WORK/tree/etc/fbanim/fbanim.conf' | grep -q '[^[:space:]]'"
for key in board loader fps color background scale rotate device font message text-color; do
    check "example-conf-key $key" grep -q "^#$key = " "$WORK/tree/etc/fbanim/fbanim.conf"
done

# ------------------------------------------------------------------ lint
if command -v lintian >/dev/null; then
    if lintian --pedantic --fail-on error,warning "$DEB" >"$WORK/lintian" 2>&1; then
        pass lintian
    else
        fail lintian "$(grep -E '^[EW]:' "$WORK/lintian" | head -n 5 | tr '\n' ' ')"
    fi
else
    skip lintian "not installed (Scripts/setup.sh installs it)"
fi
if command -v shellcheck >/dev/null; then
    for f in initramfs-tools/hooks/fbanim initramfs-tools/scripts/*/fbanim \
        packaging/deb/postinst packaging/deb/prerm packaging/deb/postrm; do
        check "shellcheck $f" shellcheck -s sh "$f"
    done
    for f in Scripts/install.sh Scripts/build-deb.sh Scripts/layout.sh \
        Tests/Packaging/run.sh Tests/Packaging/dpkg-roundtrip.sh; do
        check "shellcheck $f" shellcheck -x "$f"
    done
else
    skip shellcheck "not installed (Scripts/setup.sh installs it)"
fi

# ----------------------------------------------------------- systemd units
# systemd-analyze verify checks the syntax, the dependencies against the
# system's units and that each ExecStart= binary exists; it prints nothing
# for a clean unit. The packaged units name /usr/bin/fbanim, which this
# machine may not have: verify copies pointing at the built binary. (The
# round trip below verifies the installed units as they are.)
mkdir -p "$WORK/units"
for u in systemd/*; do
    sed "s|/usr/bin/fbanim|$BIN|g" "$u" >"$WORK/units/${u##*/}"
done
out="$(cd "$WORK/units" && SYSTEMD_UNIT_PATH="$WORK/units:" systemd-analyze verify ./*.service ./*.path 2>&1)"
if [ -z "$out" ]; then pass systemd-analyze-verify; else
    fail systemd-analyze-verify "$(echo "$out" | head -n 5 | tr '\n' ' ')"
fi

# What the brief and boot.md ask of each unit, line by line.
unit_has() { grep -qxF -- "$2" "systemd/$1"; }
S=fbanim-splash.service
for line in DefaultDependencies=no Type=notify NotifyAccess=main \
    "ConditionKernelCommandLine=splash" "ConditionKernelCommandLine=!fbanim.enable=0" \
    "ExecCondition=/usr/bin/fbanim splash --check-plymouth" \
    "ExecStart=/usr/bin/fbanim splash --mode boot" WantedBy=sysinit.target; do
    check "unit $S: $line" unit_has $S "$line"
done
check "unit $S: not Before=sysinit.target" sh -c "! grep -q '^Before=.*sysinit.target' systemd/$S"
check "unit $S: not After= udev (it would start only at sysinit.target)" sh -c "! grep -q '^After=.*udev' systemd/$S"
Q=fbanim-quit.service
for line in Type=oneshot RemainAfterExit=yes "ExecStart=-/usr/bin/fbanim ctl quit" \
    "After=systemd-user-sessions.service rc-local.service" \
    "Before=getty@tty1.service display-manager.service" WantedBy=multi-user.target; do
    check "unit $Q: $line" unit_has $Q "$line"
done
check "unit $Q: every step may fail" sh -c "! grep -E '^ExecStart(Post)?=[^-]' systemd/$Q"
W=fbanim-quit-wait.service
check "unit $W: waits" grep -q '^ExecStart=-.*/usr/bin/fbanim ctl wait$' "systemd/$W"
check "unit $W: before getty@tty1" unit_has $W "Before=getty@tty1.service"
for m in poweroff:shutdown reboot:reboot halt:shutdown kexec:reboot; do
    u="fbanim-${m%%:*}.service"
    for line in DefaultDependencies=no Type=notify "Before=systemd-${m%%:*}.service" \
        "ExecStart=/usr/bin/fbanim splash --mode ${m#*:}" KillMode=mixed SendSIGKILL=no \
        "WantedBy=${m%%:*}.target"; do
        check "unit $u: $line" unit_has "$u" "$line"
    done
    check "unit $u: not stopped by shutdown" sh -c "! grep -q '^Conflicts=.*shutdown.target' systemd/$u"
done

# The units' shell snippets, run against a stub fbanim that records its
# arguments and exits with $STUB_EXIT.
stub="$WORK/stub-fbanim"
cat >"$stub" <<STUB
#!/bin/sh
echo "\$*" >>"$WORK/stub.log"
exit "\${STUB_EXIT:-0}"
STUB
chmod 755 "$stub"
# An Exec line as systemd runs it: without the '-' prefix, $$ as $.
exec_line() { grep -m1 "^$2=" "systemd/$1" | sed -e "s/^$2=-\{0,1\}//" -e 's/\$\$/$/g' -e "s|/usr/bin/fbanim|$stub|g"; }
stop_post="$(exec_line $S ExecStopPost)"
for case in exited:no killed:yes dumped:yes unset:no; do
    rm -f "$WORK/stub.log"
    if [ "${case%%:*}" = unset ]; then
        env -u EXIT_CODE sh -c "$stop_post"
    else
        EXIT_CODE="${case%%:*}" sh -c "$stop_post"
    fi
    if grep -qx restore-console "$WORK/stub.log" 2>/dev/null; then ran=yes; else ran=no; fi
    check "ExecStopPost restore-console when EXIT_CODE=${case%%:*}: ${case#*:}" [ "$ran" = "${case#*:}" ]
done
ping_condition="$(grep '^ExecCondition=.*ctl ping' "systemd/$S" | sed -e 's/^ExecCondition=//' -e "s|/usr/bin/fbanim|$stub|g")"
STUB_EXIT=0 sh -c "$ping_condition"
check "ExecCondition skips when a splash answers ping (exit 1..254)" [ $? -ge 1 ]
STUB_EXIT=69 sh -c "$ping_condition"
check "ExecCondition goes on when no splash runs" [ $? -eq 0 ]

# ------------------------------------------------------------ udev rules
check "udev: video group for fb" grep -q '^SUBSYSTEM=="graphics", KERNEL=="fb\[0-9\]\*", GROUP="video", MODE="0660"' udev/99-fbanim.rules
check "udev: systemd tag for fb" grep -q '^SUBSYSTEM=="graphics", KERNEL=="fb\[0-9\]\*", TAG+="systemd"' udev/99-fbanim.rules
check "udev: systemd tag for drm cards" grep -q '^SUBSYSTEM=="drm", KERNEL=="card\[0-9\]\*", ENV{DEVNAME}=="?\*", TAG+="systemd"' udev/99-fbanim.rules

# ---------------------------------------------------- install.sh DESTDIR
dest="$WORK/dest"
if FBANIM_BIN="$BIN" DESTDIR="$dest" PREFIX=/usr/local ./Scripts/install.sh >"$WORK/install.out" 2>&1; then
    pass install.sh-destdir
else
    fail install.sh-destdir "$(tail -n 3 "$WORK/install.out" | tr '\n' ' ')"
fi
echo "     install.sh DESTDIR tree (PREFIX=/usr/local):"
(cd "$dest" && find . -type f -o -type l | sort | sed 's|^\.|       |')
check install.sh-binary test -x "$dest/usr/local/bin/fbanim"
check install.sh-boards test -f "$dest/usr/local/share/fbanim/boards/pi-hdmi.conf"
check install.sh-udev-in-etc test -f "$dest/etc/udev/rules.d/99-fbanim.rules"
check install.sh-units-prefix grep -qx "ExecStart=/usr/local/bin/fbanim splash --mode boot" "$dest/usr/local/lib/systemd/system/fbanim-splash.service"
check install.sh-units-no-usr-bin sh -c "! grep -r '/usr/bin/fbanim' '$dest/usr/local/lib/systemd/system'"
if [ -d /usr/share/initramfs-tools ]; then
    check install.sh-hook-prefix grep -qx "FBANIM_BIN=/usr/local/bin/fbanim" "$dest/etc/initramfs-tools/hooks/fbanim"
fi
check install.sh-conf test -f "$dest/etc/fbanim/fbanim.conf"
check install.sh-prints grep -q "installed $dest/usr/local/bin/fbanim" "$WORK/install.out"
echo "loader = spinner" >>"$dest/etc/fbanim/fbanim.conf"
FBANIM_BIN="$BIN" DESTDIR="$dest" PREFIX=/usr/local ./Scripts/install.sh >"$WORK/install2.out" 2>&1
check install.sh-keeps-existing-conf grep -qx "loader = spinner" "$dest/etc/fbanim/fbanim.conf"
if DESTDIR="$dest" PREFIX=/usr/local ./Scripts/install.sh --uninstall >"$WORK/uninstall.out" 2>&1; then
    pass install.sh-uninstall
else
    fail install.sh-uninstall "$(tail -n 3 "$WORK/uninstall.out" | tr '\n' ' ')"
fi
left="$(cd "$dest" && find . -type f -o -type l | sort | tr '\n' ' ')"
check "install.sh-uninstall leaves only the changed conf" [ "$left" = "./etc/fbanim/fbanim.conf " ]

# -------------------------------------------------------------- initramfs
kver="$(find /lib/modules -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)"
if ! command -v mkinitramfs >/dev/null; then
    skip initramfs "mkinitramfs not installed (initramfs-tools)"
elif [ -z "$kver" ] || [ ! -e "/lib/modules/$kver/modules.dep" ]; then
    skip initramfs "no kernel in /lib/modules (the VM tests' linux-image)"
else
    # A temporary configuration directory holding the hook and scripts
    # (mkinitramfs -d runs CONFDIR/hooks and copies CONFDIR/scripts), the
    # packaged binary, a board naming two QEMU display drivers and one
    # module that does not exist.
    I="$WORK/initramfs"
    mkdir -p "$I/conf/hooks" "$I/conf/scripts" "$I/conf/conf.d" "$I/etc" "$I/share/boards"
    sed -e 's/^MODULES=.*/MODULES=list/' /etc/initramfs-tools/initramfs.conf >"$I/conf/initramfs.conf"
    : >"$I/conf/modules"
    sed -e "s|^FBANIM_BIN=.*|FBANIM_BIN=$WORK/tree/usr/bin/fbanim|" \
        -e "s|^FBANIM_SHARE=.*|FBANIM_SHARE=$I/share|" \
        -e "s|^FBANIM_ETC=.*|FBANIM_ETC=$I/etc|" initramfs-tools/hooks/fbanim >"$I/conf/hooks/fbanim"
    chmod 755 "$I/conf/hooks/fbanim"
    cp -r initramfs-tools/scripts/. "$I/conf/scripts/"
    printf 'board = qemu\n' >"$I/etc/fbanim.conf"
    printf 'device = /dev/dri/card0\ninitramfs-modules = bochs virtio-gpu no_such_module\n' >"$I/share/boards/qemu.conf"

    if mkinitramfs -d "$I/conf" -o "$I/with.img" "$kver" >"$I/with.log" 2>&1; then
        pass mkinitramfs-with-hook
    else
        fail mkinitramfs-with-hook "$(tail -n 3 "$I/with.log" | tr '\n' ' ')"
    fi
    lsinitramfs "$I/with.img" >"$I/with.list" 2>/dev/null
    for f in usr/bin/fbanim etc/fbanim/fbanim.conf usr/share/fbanim/boards/qemu.conf \
        scripts/init-top/fbanim scripts/init-bottom/fbanim scripts/panic/fbanim; do
        check "lsinitramfs shows $f" grep -qx "$f" "$I/with.list"
    done
    for m in bochs.ko virtio-gpu.ko drm.ko; do
        check "lsinitramfs shows module $m (and its dependencies)" grep -q "^usr/lib/modules/$kver/.*/$m\$" "$I/with.list"
    done
    check "hook warns about a missing module" grep -q 'W: fbanim: kernel module no_such_module' "$I/with.log"
    FBANIM=n mkinitramfs -d "$I/conf" -o "$I/without.img" "$kver" >"$I/without.log" 2>&1
    lsinitramfs "$I/without.img" >"$I/without.list" 2>/dev/null
    check "FBANIM=n leaves the binary out" sh -c "! grep -qx usr/bin/fbanim '$I/without.list'"
    # A board whose driver reads a firmware file when it probes
    # (panel-mipi-dbi): without the file its modules stay out, with it both go in.
    fw="fbanim-test.$$/panel.bin"
    printf 'board = panel\n' >"$I/etc/fbanim.conf"
    printf 'device = /dev/dri/card0\ninitramfs-modules = udl\ninitramfs-firmware = %s\n' "$fw" >"$I/share/boards/panel.conf"
    mkinitramfs -d "$I/conf" -o "$I/nofw.img" "$kver" >"$I/nofw.log" 2>&1
    lsinitramfs "$I/nofw.img" >"$I/nofw.list" 2>/dev/null
    check "hook warns about missing firmware and names the board" grep -q "W: fbanim: firmware $fw (board panel) not found" "$I/nofw.log"
    check "missing firmware leaves the board's modules out" sh -c "! grep -q '/udl.ko\$' '$I/nofw.list'"
    if [ "$(id -u)" != 0 ]; then
        skip initramfs-firmware "writing /lib/firmware needs root"
    else
        mkdir -p "/lib/firmware/${fw%/*}" && echo "MIPI DBI" >"/lib/firmware/$fw"
        mkinitramfs -d "$I/conf" -o "$I/fw.img" "$kver" >"$I/fw.log" 2>&1
        rm -rf "/lib/firmware/${fw%/*}"
        lsinitramfs "$I/fw.img" >"$I/fw.list" 2>/dev/null
        check "lsinitramfs shows the board's firmware" grep -qx "usr/lib/firmware/$fw" "$I/fw.list"
        check "lsinitramfs shows the module the firmware is for" grep -q "^usr/lib/modules/$kver/.*/udl.ko\$" "$I/fw.list"
    fi
    printf 'board = qemu\n' >"$I/etc/fbanim.conf"
    rm -f "$I/conf/hooks/fbanim"
    mkinitramfs -d "$I/conf" -o "$I/base.img" "$kver" >/dev/null 2>&1
    figure "initramfs ($kver, MODULES=list, $(sed -n 's/^COMPRESS=//p' "$I/conf/initramfs.conf")): $(($(stat -c %s "$I/base.img") / 1024)) KiB without fbanim, $(($(stat -c %s "$I/with.img") / 1024)) KiB with it (+$((($(stat -c %s "$I/with.img") - $(stat -c %s "$I/base.img")) / 1024)) KiB: binary, conf, board, bochs + virtio-gpu + drm)"

    # The initramfs scripts, run by the initramfs's own shell (chroot into
    # the unpacked image) with a stub fbanim and a fake /proc/cmdline.
    if [ "$(id -u)" != 0 ]; then
        skip initramfs-scripts "chroot needs root"
    else
        R="$I/root"
        mkdir -p "$R"
        (cd "$R" && unmkinitramfs "$I/with.img" . >/dev/null 2>&1)
        [ -d "$R/main" ] && R="$R/main"
        # shellcheck disable=SC2016
        printf '#!/bin/sh\necho "$*" >>/run/stub.log\n' >"$R/usr/bin/fbanim"
        chmod 755 "$R/usr/bin/fbanim"
        mkdir -p "$R/proc" "$R/dev" "$R/run/initramfs" "$R/cryptroot"
        [ -e "$R/dev/null" ] || mknod -m 666 "$R/dev/null" c 1 3
        init_top() { # CMDLINE [plymouth] [crypt] -> what the stub saw
            echo "$1" >"$R/proc/cmdline"
            rm -f "$R/run/stub.log" "$R/usr/sbin/plymouthd" "$R/cryptroot/crypttab"
            case " $* " in *" plymouth "*) printf '#!/bin/sh\n' >"$R/usr/sbin/plymouthd" && chmod 755 "$R/usr/sbin/plymouthd" ;; esac
            case " $* " in *" crypt "*) echo "root UUID=x none luks" >"$R/cryptroot/crypttab" ;; esac
            chroot "$R" /bin/sh /scripts/init-top/fbanim
            for _ in 1 2 3 4 5 6 7 8 9 10; do
                [ -s "$R/run/stub.log" ] && break
                sleep 0.1
            done
            cat "$R/run/stub.log" 2>/dev/null
        }
        started="splash --mode boot"
        check "init-top: splash starts it" [ "$(init_top 'root=/dev/vda quiet splash')" = "$started" ]
        check "init-top: splash=silent starts it" [ "$(init_top 'splash=silent')" = "$started" ]
        check "init-top: no splash, no start" [ -z "$(init_top 'root=/dev/vda quiet')" ]
        check "init-top: fbanim.enable=0" [ -z "$(init_top 'splash fbanim.enable=0')" ]
        check "init-top: nosplash" [ -z "$(init_top 'splash nosplash')" ]
        check "init-top: Plymouth in the initramfs" [ -z "$(init_top 'splash' plymouth)" ]
        check "init-top: Plymouth there but plymouth.enable=0" [ "$(init_top 'splash plymouth.enable=0' plymouth)" = "$started" ]
        check "init-top: encrypted root asks on the console" [ -z "$(init_top 'splash' crypt)" ]
        rm -f "$R/run/stub.log"
        chroot "$R" env rootmnt=/root /bin/sh /scripts/init-bottom/fbanim
        check "init-bottom: ctl newroot /root" [ "$(cat "$R/run/stub.log" 2>/dev/null)" = "ctl newroot /root" ]
        rm -f "$R/run/stub.log"
        chroot "$R" /bin/sh /scripts/panic/fbanim
        check "panic: ctl quit" [ "$(cat "$R/run/stub.log" 2>/dev/null)" = "ctl quit" ]
        check "init-top runs after udev" sh -c "grep -n 'init-top/' '$R/scripts/init-top/ORDER' | grep -A100 'init-top/udev' | grep -q 'init-top/fbanim'"
    fi
fi

# ------------------------------------------- install and purge the .deb
if [ "$(id -u)" != 0 ]; then
    skip dpkg-roundtrip "needs root"
elif ! command -v unshare >/dev/null; then
    skip dpkg-roundtrip "needs unshare (util-linux)"
else
    "$HERE/dpkg-roundtrip.sh" "$DEB" "$BIN" >"$WORK/roundtrip" 2>&1
    cat "$WORK/roundtrip"
    passed=$((passed + $(grep -c '^PASS ' "$WORK/roundtrip")))
    failed=$((failed + $(grep -c '^FAIL ' "$WORK/roundtrip")))
    grep -q '^PASS dpkg-purge-leaves-nothing' "$WORK/roundtrip" || [ "$(grep -c '^FAIL ' "$WORK/roundtrip")" -gt 0 ] ||
        fail dpkg-roundtrip "ended early: $(tail -n 3 "$WORK/roundtrip" | tr '\n' ' ')"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
