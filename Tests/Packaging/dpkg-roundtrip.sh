#!/usr/bin/env bash
# Installs, upgrades, removes and purges the fbanim .deb in a throw-away
# root and checks that nothing is left behind. Prints PASS/FAIL lines (run
# by Tests/Packaging/run.sh, or alone: Tests/Packaging/dpkg-roundtrip.sh DEB).
#
# The throw-away root: an overlay whose lower layer is this machine's own
# / (read-only to the overlay) and whose upper layer is a tmpfs, entered
# with chroot. dpkg, deb-systemd-helper, udevadm and update-initramfs of
# the machine run as in a real Debian system, on its real dpkg database;
# every change lands in the tmpfs, which is then read to find what the
# package left behind. No debootstrap, no network. It all happens in a
# private mount namespace (unshare), so the mounts go away with it. Needs
# root, overlayfs and a Debian host.
#
# A kernel from /lib/modules (the VM tests' linux-image) is registered in
# the overlay so that the maintainer scripts' `update-initramfs -u -k all`
# really builds an initramfs (MODULES=list in the overlay, to keep it
# quick); without one that step is skipped.
set -uo pipefail

if [ "${1:-}" != --in-namespace ]; then
    deb="$(realpath "${1:?usage: dpkg-roundtrip.sh DEB [FBANIM_BIN]}")"
    bin="${2:+$(realpath "$2")}"
    exec unshare --mount --propagation private "$0" --in-namespace "$deb" "$bin"
fi
deb="$2"
bin="${3:-}"
repo="$(cd "$(dirname "$0")/../.." && pwd)"

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1${2:+: $2}"; }
check() { # NAME COMMAND...: PASS when the command succeeds
    local name="$1"
    shift
    if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name"; fi
}

T="$(mktemp -d "${TMPDIR:-/tmp}/fbanim-root.XXXXXX")"
# The mounts end with this namespace; the empty mount point is the
# machine's and is removed here.
trap 'umount -R "$T" 2>/dev/null; rmdir "$T" 2>/dev/null' EXIT
mount -t tmpfs -o size=2g,mode=0755 fbanim-root "$T" || {
    fail dpkg-root-setup "tmpfs"
    exit 0
}
mkdir "$T/upper" "$T/work" "$T/root"
if ! mount -t overlay overlay -o "lowerdir=/,upperdir=$T/upper,workdir=$T/work" "$T/root"; then
    fail dpkg-root-setup "overlayfs over / (root and a kernel with overlayfs needed)"
    exit 0
fi
M="$T/root"
mount -t proc proc "$M/proc"
mount --bind /dev "$M/dev"
mount --bind -o ro /sys "$M/sys" 2>/dev/null || true
mount -t tmpfs tmpfs "$M/run"
mount -t tmpfs tmpfs "$M/tmp"
# The repository and the binary are seen at their own paths in the root;
# where they live in a mount of their own (a clone in /tmp, which the
# tmpfs above hides), they are bound in, read-only.
for d in "$repo" "${bin:+$(dirname "$bin")}"; do
    [ -n "$d" ] || continue
    if [ ! -e "$M$d/." ] || [ "$(stat -c %d:%i "$d")" != "$(stat -c %d:%i "$M$d" 2>/dev/null)" ]; then
        mkdir -p "$M$d" 2>/dev/null
        mount --bind "$d" "$M$d" && mount -o remount,bind,ro "$M$d"
    fi
done
in_root() { chroot "$M" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }

# Set-up noise, left out of the leftovers checks below.
kver="$(find /lib/modules -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)"
if [ -n "$kver" ] && [ -e "/lib/modules/$kver/modules.dep" ] && command -v update-initramfs >/dev/null; then
    mkdir -p "$M/var/lib/initramfs-tools" "$M/etc/initramfs-tools/conf.d"
    touch "$M/var/lib/initramfs-tools/$kver"
    echo MODULES=list >"$M/etc/initramfs-tools/conf.d/zz-fbanim-test"
else
    kver=""
fi
cp "$deb" "$M/tmp/fbanim.deb"
baseline="$T/baseline"
(cd "$T/upper" && find . | LC_ALL=C sort) >"$baseline"

log="$T/dpkg.log"
units_enabled() { # every [Install]ed unit has its link
    local w
    for w in sysinit.target.wants/fbanim-splash.service sysinit.target.wants/fbanim-ask-password.path \
        multi-user.target.wants/fbanim-quit.service multi-user.target.wants/fbanim-quit-wait.service \
        poweroff.target.wants/fbanim-poweroff.service reboot.target.wants/fbanim-reboot.service \
        halt.target.wants/fbanim-halt.service kexec.target.wants/fbanim-kexec.service; do
        [ -L "$M/etc/systemd/system/$w" ] || {
            echo "missing $w" >&2
            return 1
        }
    done
}
# shellcheck disable=SC2317 # called through check
no_unit_links() {
    [ -z "$(find "$M/etc/systemd/system" -name 'fbanim-*')" ]
}
# (The list is read whole: grep -q would close the pipe early, and
# pipefail would count lsinitramfs's SIGPIPE as a failure.)
initramfs_has() {
    in_root lsinitramfs "/boot/initrd.img-$kver" >"$T/lsinitramfs" 2>/dev/null
    grep -qx "$1" "$T/lsinitramfs"
}

# 1. Install.
if in_root dpkg -i /tmp/fbanim.deb >"$log" 2>&1; then pass dpkg-install; else
    fail dpkg-install "$(tail -n 5 "$log" | tr '\n' ' ')"
fi
check dpkg-status-installed sh -c "chroot '$M' dpkg-query -W -f='\${Status}' fbanim | grep -qx 'install ok installed'"
check dpkg-install-files test -x "$M/usr/bin/fbanim" -a -f "$M/etc/fbanim/fbanim.conf" -a -f "$M/lib/udev/rules.d/99-fbanim.rules"
if units_enabled 2>"$T/why"; then pass dpkg-units-enabled; else fail dpkg-units-enabled "$(cat "$T/why")"; fi
check dpkg-binary-runs in_root /usr/bin/fbanim --help
# The units as installed, with the binary in place: systemd-analyze verify
# prints nothing for a clean unit.
out="$(in_root sh -c 'systemd-analyze verify /lib/systemd/system/fbanim-*.service /lib/systemd/system/fbanim-*.path' 2>&1)"
if [ -z "$out" ]; then pass systemd-analyze-verify-installed; else
    fail systemd-analyze-verify-installed "$(echo "$out" | head -n 3 | tr '\n' ' ')"
fi
# The whole boot and shutdown transactions with the units enabled (and a
# console getty, which the units order themselves against): no ordering
# cycle, nothing said about fbanim's units.
in_root systemctl enable getty@tty1.service >/dev/null 2>&1
out=""
for target in default.target graphical.target rescue.target emergency.target \
    poweroff.target reboot.target halt.target kexec.target; do
    out="$out$(in_root systemd-analyze verify "$target" 2>&1 | grep -i -E 'fbanim|cycle')"
done
if [ -z "$out" ]; then pass systemd-analyze-verify-boot-and-shutdown; else
    fail systemd-analyze-verify-boot-and-shutdown "$(echo "$out" | head -n 3 | tr '\n' ' ')"
fi

# udev parses the rules: udevadm test reads every rules file and reports
# each line it cannot parse as FILE:LINE message.
if [ -e "$M/sys/class/mem/null" ]; then
    in_root udevadm test --action=add /sys/class/mem/null >"$T/udev" 2>&1
    if ! grep -q 'Reading rules file: .*/99-fbanim\.rules' "$T/udev"; then
        fail udev-rules-parse "udevadm did not read 99-fbanim.rules"
    elif grep -q '99-fbanim\.rules:[0-9]' "$T/udev"; then
        fail udev-rules-parse "$(grep '99-fbanim\.rules:[0-9]' "$T/udev" | tr '\n' ' ')"
    else
        pass udev-rules-parse
    fi
fi
if [ -n "$kver" ]; then
    if initramfs_has usr/bin/fbanim && initramfs_has scripts/init-top/fbanim && initramfs_has etc/fbanim/fbanim.conf; then
        pass dpkg-initramfs-rebuilt-with-fbanim
    else
        fail dpkg-initramfs-rebuilt-with-fbanim "update-initramfs did not put fbanim into /boot/initrd.img-$kver"
    fi
fi

# 2. An administrator's choices survive an upgrade: a disabled unit stays
#    disabled, a changed conffile stays changed.
in_root systemctl disable fbanim-quit-wait.service >/dev/null 2>&1
echo "loader = radar" >>"$M/etc/fbanim/fbanim.conf"
if in_root dpkg -i /tmp/fbanim.deb >"$log" 2>&1; then pass dpkg-reinstall; else
    fail dpkg-reinstall "$(tail -n 5 "$log" | tr '\n' ' ')"
fi
check dpkg-reinstall-keeps-disabled test ! -e "$M/etc/systemd/system/multi-user.target.wants/fbanim-quit-wait.service"
check dpkg-reinstall-keeps-others-enabled test -L "$M/etc/systemd/system/sysinit.target.wants/fbanim-splash.service"
check dpkg-reinstall-keeps-conffile grep -qx 'loader = radar' "$M/etc/fbanim/fbanim.conf"

# 3. Remove: files, links and initramfs part gone; the conffile stays.
if in_root dpkg --remove fbanim >"$log" 2>&1; then pass dpkg-remove; else
    fail dpkg-remove "$(tail -n 5 "$log" | tr '\n' ' ')"
fi
check dpkg-remove-files-gone test ! -e "$M/usr/bin/fbanim" -a ! -e "$M/usr/share/initramfs-tools/hooks/fbanim" -a ! -e "$M/lib/systemd/system/fbanim-splash.service"
check dpkg-remove-units-disabled no_unit_links
check dpkg-remove-keeps-conffile test -f "$M/etc/fbanim/fbanim.conf"
if [ -n "$kver" ]; then
    if ! initramfs_has usr/bin/fbanim && ! initramfs_has scripts/init-top/fbanim; then
        pass dpkg-remove-initramfs-without-fbanim
    else
        fail dpkg-remove-initramfs-without-fbanim "fbanim still in /boot/initrd.img-$kver"
    fi
fi

# 4. Purge, with state fbanim would have made at run time.
mkdir -p "$M/var/lib/fbanim" "$M/etc/fbanim/boards" "$M/run/fbanim"
touch "$M/var/lib/fbanim/history" "$M/etc/fbanim/boards/mine.conf" "$M/run/fbanim/boot-done"
if in_root dpkg --purge fbanim >"$log" 2>&1; then pass dpkg-purge; else
    fail dpkg-purge "$(tail -n 5 "$log" | tr '\n' ' ')"
fi
check dpkg-purge-not-known sh -c "! chroot '$M' dpkg-query -W fbanim"
check dpkg-purge-config-and-state-gone test ! -e "$M/etc/fbanim" -a ! -e "$M/var/lib/fbanim" -a ! -e "$M/run/fbanim"

# 5. Nothing left: every path the upper layer gained since the baseline
#    is dpkg's own bookkeeping, the rebuilt initramfs, or man's page cache
#    (systemd-analyze verify formats the pages Documentation= names).
(cd "$T/upper" && find . | LC_ALL=C sort) >"$T/after"
leftovers="$(LC_ALL=C comm -13 "$baseline" "$T/after" | grep -v -E \
    -e '^\./var/lib/dpkg(/|$)' -e '^\./var/log(/|$)' -e '^\./var/cache/debconf(/|$)' \
    -e '^\./var/cache/man(/|$)' -e '^\./var/cache$' \
    -e '^\./boot(/initrd\.img-[^/]*)?$' -e '^\./var/lib/initramfs-tools(/|$)' \
    -e '^\./var(/lib)?$' -e '^\./etc$' -e '^\./etc/(ld\.so\.cache)$' || true)"
# Directories that existed before and only had their time changed show up
# as copied-up directories: keep only those that are new or not empty of
# new entries.
real=""
for p in $leftovers; do
    if [ -d "$T/upper/$p" ] && [ -e "/$p" ]; then continue; fi
    # A whiteout (character device 0:0): the purge removed what the host
    # root already had (a /var/lib/fbanim of an earlier run), nothing left.
    if [ -c "$T/upper/$p" ] && [ "$(stat -c %t:%T "$T/upper/$p")" = 0:0 ]; then continue; fi
    real="$real $p"
done
if [ -z "$real" ]; then pass dpkg-purge-leaves-nothing; else
    fail dpkg-purge-leaves-nothing "left behind:$real"
fi
if grep -R -l -s fbanim "$M/var/lib/systemd/deb-systemd-helper-enabled" "$M/var/lib/systemd/deb-systemd-helper-masked" >/dev/null; then
    fail dpkg-purge-helper-state-gone "deb-systemd-helper still records fbanim units"
else
    pass dpkg-purge-helper-state-gone
fi

# 6. Scripts/install.sh on the same throw-away root, live (no DESTDIR):
#    installs into /usr/local, enables the units with systemctl (offline,
#    no systemd running), rebuilds the initramfs; --uninstall takes it all
#    back. The repository and the binary are on the machine's /, so the
#    chroot sees them at the same paths.
if [ -n "$bin" ]; then
    (cd "$T/upper" && find . | LC_ALL=C sort) >"$baseline"
    if in_root env FBANIM_BIN="$bin" PREFIX=/usr/local "$repo/Scripts/install.sh" >"$log" 2>&1; then
        pass install.sh-live
    else
        fail install.sh-live "$(tail -n 5 "$log" | tr '\n' ' ')"
    fi
    check install.sh-live-enabled test -L "$M/etc/systemd/system/sysinit.target.wants/fbanim-splash.service" \
        -a -L "$M/etc/systemd/system/poweroff.target.wants/fbanim-poweroff.service"
    check install.sh-live-unit-path grep -qx 'ExecStart=/usr/local/bin/fbanim splash --mode boot' "$M/usr/local/lib/systemd/system/fbanim-splash.service"
    out="$(in_root sh -c 'systemd-analyze verify /usr/local/lib/systemd/system/fbanim-*.service /usr/local/lib/systemd/system/fbanim-*.path' 2>&1)"
    if [ -z "$out" ]; then pass install.sh-live-systemd-analyze-verify; else
        fail install.sh-live-systemd-analyze-verify "$(echo "$out" | head -n 3 | tr '\n' ' ')"
    fi
    if [ -n "$kver" ]; then
        check install.sh-live-initramfs-has-fbanim initramfs_has usr/bin/fbanim
    fi
    if in_root env PREFIX=/usr/local "$repo/Scripts/install.sh" --uninstall >"$log" 2>&1; then
        pass install.sh-live-uninstall
    else
        fail install.sh-live-uninstall "$(tail -n 5 "$log" | tr '\n' ' ')"
    fi
    if [ -n "$kver" ]; then
        check install.sh-live-initramfs-without-fbanim sh -c "! chroot '$M' lsinitramfs /boot/initrd.img-$kver | grep -x usr/bin/fbanim"
    fi
    (cd "$T/upper" && find . | LC_ALL=C sort) >"$T/after"
    real=""
    for p in $(LC_ALL=C comm -13 "$baseline" "$T/after" | grep -v -E \
        -e '^\./boot(/initrd\.img-[^/]*)?$' -e '^\./var/lib/initramfs-tools(/|$)' || true); do
        if [ -d "$T/upper/$p" ] && [ -e "/$p" ]; then continue; fi
    # A whiteout (character device 0:0): the purge removed what the host
    # root already had (a /var/lib/fbanim of an earlier run), nothing left.
    if [ -c "$T/upper/$p" ] && [ "$(stat -c %t:%T "$T/upper/$p")" = 0:0 ]; then continue; fi
        real="$real $p"
    done
    if [ -z "$real" ]; then pass install.sh-uninstall-leaves-nothing; else
        fail install.sh-uninstall-leaves-nothing "left behind:$real"
    fi
fi
exit 0
