#!/usr/bin/env bash
# Installs what fbanim needs to build and test on Debian 12 (bookworm) with
# Swift 6 already on the PATH, and nothing that is already there.
# Safe to run again. Uses sudo when not root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# fbanim links statically: the .a files of libdrm, zlib, glibc and libstdc++,
# and FreeType's with what it needs (libpng, Brotli). fonts-dejavu-core: the
# source of the built-in font (Scripts/gen-default-font.py) and a full font
# for the text tests.
# The packaging tests (Tests/Packaging/run.sh): initramfs-tools (mkinitramfs,
# lsinitramfs, unmkinitramfs, with cpio, zstd and kmod), binutils (readelf,
# strip for build-deb.sh), udev (udevadm test), shellcheck and lintian.
# plymouth: its client talks to fbanim's splash in the tests (SplashTests),
# and the VM boots check that fbanim stands down while Plymouth is enabled.
# The ARM check (Scripts/arm-check.sh): Debian's cross C libraries and
# libgcc for arm64, armhf and armel (linked by the toolchain's ld.lld, so no
# cross gcc), and qemu-user to run the programs (about 42 MB to download).
# time: /usr/bin/time reads a run's peak RSS (Scripts/rss.sh).
# strace: StartUpEntropyTests plays fbanim as if the kernel's random pool
# were not ready yet (it injects EAGAIN into getrandom).
packages=(libdrm-dev zlib1g-dev libc6-dev libstdc++-12-dev pkg-config
    libfreetype-dev libpng-dev libbrotli-dev fonts-dejavu-core
    initramfs-tools cpio zstd kmod binutils udev shellcheck lintian
    plymouth time strace
    qemu-user libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
    libc6-dev-armhf-cross libgcc-12-dev-armhf-cross
    libc6-dev-armel-cross libgcc-12-dev-armel-cross)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null || {
    echo "setup: swift is not on the PATH; install Swift 6 (swift.org) first" >&2
    exit 69
}

# The VM tests of the display backends (Tests/VM) boot a real kernel in QEMU
# with the harness in Tests/VM/harness: its install.sh installs QEMU, a
# kernel, busybox, initramfs-tools, systemd, the C and Python tools the tests
# use, and builds vkms.ko. Idempotent: a quarter of a second when all is
# there, a few minutes the first time. FBANIM_SKIP_VM=1 skips it.
if [ "${FBANIM_SKIP_VM:-0}" != 1 ]; then
    $sudo "$here/../Tests/VM/harness/install.sh" >/dev/null
fi

# Real console fonts for the PSF tests (Tests/FBTextTests, read through
# FBTEXT_CONSOLEFONTS, which Scripts/test.sh sets): console-setup-linux's
# 456 fonts, unpacked into .build/consolefonts, not installed: installing
# the package would add its boot units to the VM tests' guest, whose root
# is this machine's. Without them the tests check the hand-built fonts and
# say so. About 1.5 MB to download, once.
fonts="$here/../.build/consolefonts"
if [ ! -d "$fonts" ]; then
    work=$(mktemp -d)
    if (cd "$work" && apt-get download console-setup-linux >/dev/null 2>&1 &&
        dpkg-deb -x console-setup-linux_*.deb root &&
        [ -n "$(ls root/usr/share/consolefonts)" ]); then
        mkdir -p "$here/../.build"
        mv "$work/root/usr/share/consolefonts" "$fonts"
    else
        echo "setup: console-setup-linux's fonts not fetched: the PSF tests check the hand-built fonts only" >&2
    fi
    rm -rf "$work"
fi
