#!/usr/bin/env bash
# Installs fbanim as a boot splash on a system without the Debian package
# (on Debian and Raspberry Pi OS prefer ./Scripts/build-deb.sh).
#
#   sudo ./Scripts/install.sh                  # into /usr/local
#   sudo PREFIX=/usr ./Scripts/install.sh
#   DESTDIR=/tmp/root ./Scripts/install.sh     # a staged tree (no root needed)
#   sudo ./Scripts/install.sh --uninstall      # same PREFIX as the install
#
# Environment:
#   PREFIX        /usr/local by default
#   DESTDIR       staging root; with it nothing is enabled or reloaded
#   FBANIM_BIN    an fbanim executable to install instead of building one
#                 (swift build -c release --product fbanim, ~2 minutes)
#   UDEVRULESDIR, SYSTEMDUNITDIR, INITRAMFSDIR  override the places below
#
# What goes where (PREFIX=/usr/local):
#   $PREFIX/bin/fbanim, $PREFIX/share/fbanim/boards/*.conf,
#   $PREFIX/share/doc/fbanim/, /etc/fbanim/fbanim.conf (an existing one is
#   kept), udev rules in /etc/udev/rules.d (udev does not read
#   /usr/local), units in $PREFIX/lib/systemd/system (systemd reads
#   /usr/local/lib/systemd/system), initramfs-tools hook and scripts in
#   /etc/initramfs-tools (only when /usr/share/initramfs-tools exists).
#   With PREFIX=/usr: /usr/lib/udev/rules.d and /usr/share/initramfs-tools.
#
# Without DESTDIR it then reloads udev, enables the units (systemctl
# enable works without a running systemd too) and rebuilds the initramfs
# of every kernel; --no-activate skips that. Prints what it did.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=Scripts/layout.sh
. "$REPO/Scripts/layout.sh"

mode=install
activate=1
for arg in "$@"; do
    case "$arg" in
    --uninstall) mode=uninstall ;;
    --no-activate) activate=0 ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "install.sh: unknown argument '$arg' (see --help)" >&2
        exit 64
        ;;
    esac
done

PREFIX="${PREFIX:-/usr/local}"
PREFIX="${PREFIX%/}"
DESTDIR="${DESTDIR:-}"
DESTDIR="${DESTDIR%/}"
case "$PREFIX" in
/*) ;;
*)
    echo "install.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2
    exit 64
    ;;
esac

BINDIR="$PREFIX/bin"
SHAREDIR="$PREFIX/share/fbanim"
DOCDIR="$PREFIX/share/doc/fbanim"
CONFDIR=/etc/fbanim
if [ "$PREFIX" = /usr ]; then
    UDEVRULESDIR="${UDEVRULESDIR:-/usr/lib/udev/rules.d}"
    SYSTEMDUNITDIR="${SYSTEMDUNITDIR:-/usr/lib/systemd/system}"
    initramfs_default=/usr/share/initramfs-tools
elif [ "$PREFIX" = /usr/local ]; then
    UDEVRULESDIR="${UDEVRULESDIR:-/etc/udev/rules.d}"
    SYSTEMDUNITDIR="${SYSTEMDUNITDIR:-/usr/local/lib/systemd/system}"
    initramfs_default=/etc/initramfs-tools
else
    # Neither udev nor systemd nor initramfs-tools look under other prefixes.
    UDEVRULESDIR="${UDEVRULESDIR:-/etc/udev/rules.d}"
    SYSTEMDUNITDIR="${SYSTEMDUNITDIR:-/etc/systemd/system}"
    initramfs_default=/etc/initramfs-tools
fi
UNITDIR="$SYSTEMDUNITDIR"
if [ -n "${INITRAMFSDIR+set}" ]; then
    :
elif [ -d /usr/share/initramfs-tools ]; then
    INITRAMFSDIR="$initramfs_default"
else
    INITRAMFSDIR=""
fi

live=0
if [ -z "$DESTDIR" ] && [ "$activate" = 1 ]; then
    live=1
fi

say() { echo "install.sh: $*"; }

# Enabling and reloading: only on the running system.
systemd_offline_ok() { command -v systemctl >/dev/null 2>&1; }
udev_running() { command -v udevadm >/dev/null 2>&1 && [ -S /run/udev/control ]; }
systemd_running() { [ -d /run/systemd/system ]; }

if [ "$mode" = uninstall ]; then
    if [ "$live" = 1 ] && systemd_offline_ok; then
        # shellcheck disable=SC2046
        systemctl --no-reload disable $(fbanim_enabled_units) >/dev/null 2>&1 || true
        say "disabled $(fbanim_enabled_units | tr '\n' ' ')"
    fi
    files=("$BINDIR/fbanim" "$UDEVRULESDIR/99-fbanim.rules"
        "$DOCDIR/README.md" "$DOCDIR/boot-splash.md" "$DOCDIR/boards.md")
    for f in "$REPO"/boards/*.conf; do files+=("$SHAREDIR/boards/${f##*/}"); done
    for u in $(fbanim_units); do files+=("$UNITDIR/$u"); done
    if [ -n "$INITRAMFSDIR" ]; then
        for f in hooks/fbanim scripts/init-top/fbanim scripts/init-bottom/fbanim scripts/panic/fbanim; do
            files+=("$INITRAMFSDIR/$f")
        done
    fi
    for f in "${files[@]}"; do
        if [ -e "$DESTDIR$f" ] || [ -L "$DESTDIR$f" ]; then
            rm -f "$DESTDIR$f"
            say "removed $DESTDIR$f"
        fi
    done
    conf="$DESTDIR$CONFDIR/fbanim.conf"
    if [ -f "$conf" ] && cmp -s "$conf" <(fbanim_example_conf); then
        rm -f "$conf"
        say "removed $conf (unchanged example)"
    elif [ -f "$conf" ]; then
        say "kept $conf (changed; remove it by hand)"
    fi
    # Directories: those the install made (it listed them), when empty,
    # deepest first; fbanim's own in any case.
    made="$DESTDIR$SHAREDIR/installed-directories"
    dirs="$( { [ -f "$made" ] && cat "$made"; printf '%s\n' "$SHAREDIR/boards" "$SHAREDIR" "$DOCDIR" "$CONFDIR"; } |
        sort -u | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-)"
    rm -f "$made"
    while read -r d; do
        [ -n "$d" ] || continue
        if rmdir "$DESTDIR$d" 2>/dev/null; then say "removed $DESTDIR$d/"; fi
    done <<<"$dirs"
    if [ "$live" = 1 ]; then
        if udev_running; then
            udevadm control --reload-rules || true
            udevadm trigger --action=change --subsystem-match=drm --subsystem-match=graphics || true
            say "reloaded udev rules"
        fi
        if systemd_running; then
            systemctl daemon-reload || true
            say "reloaded systemd"
        fi
        if [ -n "$INITRAMFSDIR" ] && command -v update-initramfs >/dev/null 2>&1; then
            say "rebuilding the initramfs without fbanim (update-initramfs -u -k all)"
            update-initramfs -u -k all || say "WARNING: update-initramfs failed"
        fi
    fi
    say "uninstalled from PREFIX=$PREFIX${DESTDIR:+ DESTDIR=$DESTDIR}"
    exit 0
fi

# The binary: given, or a static release build.
if [ -n "${FBANIM_BIN:-}" ]; then
    FBANIM_BIN_SRC="$FBANIM_BIN"
else
    say "building: swift build -c release --product fbanim"
    (cd "$REPO" && swift build -c release --product fbanim) >&2
    FBANIM_BIN_SRC="$REPO/.build/release/fbanim"
fi
if [ ! -x "$FBANIM_BIN_SRC" ]; then
    echo "install.sh: '$FBANIM_BIN_SRC' is not an executable" >&2
    exit 66
fi

# The directories this install makes (every missing parent of a file it
# writes), for --uninstall to remove again and no others.
made=()
for d in "$BINDIR" "$SHAREDIR/boards" "$DOCDIR" "$UDEVRULESDIR" "$UNITDIR" "$CONFDIR" \
    ${INITRAMFSDIR:+"$INITRAMFSDIR/hooks" "$INITRAMFSDIR/scripts/init-top" "$INITRAMFSDIR/scripts/init-bottom" "$INITRAMFSDIR/scripts/panic"}; do
    while [ "$d" != / ] && [ ! -e "$DESTDIR$d" ]; do
        made+=("$d")
        d="${d%/*}"
        d="${d:-/}"
    done
done

while read -r f; do
    say "installed $DESTDIR$f"
done < <(fbanim_stage "$DESTDIR")
if [ ${#made[@]} -gt 0 ]; then
    printf '%s\n' "${made[@]}" | sort -u >"$DESTDIR$SHAREDIR/installed-directories"
fi

conf="$DESTDIR$CONFDIR/fbanim.conf"
if [ -e "$conf" ]; then
    say "kept $conf (exists)"
else
    install -d "$DESTDIR$CONFDIR"
    fbanim_example_conf >"$conf"
    chmod 644 "$conf"
    say "installed $conf"
fi

if [ "$live" = 1 ]; then
    if udev_running; then
        udevadm control --reload-rules || true
        udevadm trigger --action=change --subsystem-match=drm --subsystem-match=graphics || true
        say "reloaded udev rules, re-triggered drm and graphics devices"
    fi
    if systemd_running; then
        systemctl daemon-reload || true
    fi
    if systemd_offline_ok; then
        # shellcheck disable=SC2046
        systemctl --no-reload enable $(fbanim_enabled_units) >/dev/null 2>&1 ||
            say "WARNING: systemctl enable failed"
        say "enabled $(fbanim_enabled_units | tr '\n' ' ')"
    fi
    if [ -n "$INITRAMFSDIR" ] && command -v update-initramfs >/dev/null 2>&1; then
        say "rebuilding the initramfs with fbanim (update-initramfs -u -k all)"
        update-initramfs -u -k all || say "WARNING: update-initramfs failed"
    fi
    say "add 'splash' to the kernel command line and reboot (see $DOCDIR/boot-splash.md)"
fi
say "installed into PREFIX=$PREFIX${DESTDIR:+ DESTDIR=$DESTDIR}"
