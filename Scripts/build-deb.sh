#!/usr/bin/env bash
# Builds the Debian package of fbanim in one command:
#
#   ./Scripts/build-deb.sh
#
# writes .build/fbanim_VERSION_ARCH.deb and prints its absolute path as
# its last line on stdout (everything else goes to stderr), so that
#   deb="$(./Scripts/build-deb.sh | tail -n 1)"
# works from scripts and VM tests.
#
# VERSION is the top-level file VERSION (one line, e.g. 0.1.0): the one
# place the version is kept. ARCH is `dpkg --print-architecture`.
#
# Environment:
#   FBANIM_BIN        package this fbanim executable instead of building one
#                     (swift build -c release --product fbanim: a static
#                     executable, about 2 minutes)
#   FBANIM_DEB_ARCH   Debian architecture of FBANIM_BIN when it is not the
#                     build machine's (arm64, armhf); checked against the ELF
#   FBANIM_STRIP=0    keep the symbols (default: stripped, as Debian ships
#                     binaries)
#   FBANIM_MAINTAINER the Maintainer field (default: the last commit's author)
#   SOURCE_DATE_EPOCH timestamps (default: the last commit's date)
#
# Needs dpkg-deb, gzip, install, sed, readelf (binutils).
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
cd "$REPO"
# shellcheck source=Scripts/layout.sh
. "$REPO/Scripts/layout.sh"

log() { echo "build-deb: $*" >&2; }
die() {
    echo "build-deb: $*" >&2
    exit 1
}

VERSION="$(tr -d ' \t\r\n' <VERSION)"
[[ "$VERSION" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "VERSION '$VERSION' is not a Debian native version"
ARCH="${FBANIM_DEB_ARCH:-$(dpkg --print-architecture)}"
# The Maintainer: FBANIM_MAINTAINER, else the author of the last commit (a
# project identity that does not depend on who builds), else git's user.
MAINTAINER="${FBANIM_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}"
if ! [[ "$MAINTAINER" =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]]; then
    MAINTAINER="$(git config user.name 2>/dev/null || true) <$(git config user.email 2>/dev/null || true)>"
fi
[[ "$MAINTAINER" =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] || die "no Maintainer: set FBANIM_MAINTAINER='Name <address>'"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"

# The binary.
if [ -n "${FBANIM_BIN:-}" ]; then
    BIN="$FBANIM_BIN"
else
    log "swift build -c release --product fbanim"
    swift build -c release --product fbanim >&2
    BIN="$REPO/.build/release/fbanim"
fi
[ -x "$BIN" ] || die "'$BIN' is not an executable"

# Its architecture must be the package's, and it should be static (one
# file that runs in the initramfs with no libraries beside it).
machine="$(readelf -h "$BIN" | sed -n 's/^ *Machine: *//p')"
case "$ARCH:$machine" in
amd64:*X86-64* | arm64:AArch64 | armhf:ARM | armel:ARM | i386:*80386* | riscv64:RISC-V | ppc64el:PowerPC64 | s390x:*S/390*) ;;
*) die "'$BIN' is built for '$machine', not for Debian architecture $ARCH (set FBANIM_DEB_ARCH)" ;;
esac
if readelf -l "$BIN" | grep 'Requesting program interpreter' >/dev/null; then
    log "WARNING: $BIN is dynamically linked; the initramfs needs the static release build"
fi

BINDIR=/usr/bin
SHAREDIR=/usr/share/fbanim
DOCDIR=/usr/share/doc/fbanim
# Debian 12 (bookworm) paths: packages still ship /lib, usrmerge links it.
UDEVRULESDIR=/lib/udev/rules.d
UNITDIR=/lib/systemd/system
INITRAMFSDIR=/usr/share/initramfs-tools

work="$(mktemp -d "${TMPDIR:-/tmp}/fbanim-deb.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/root"
mkdir -p "$root/DEBIAN"
chmod 755 "$root" "$root/DEBIAN"

FBANIM_BIN_SRC="$BIN"
fbanim_stage "$root" >/dev/null
if [ "${FBANIM_STRIP:-1}" != 0 ]; then
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root$BINDIR/fbanim"
fi

install -d -m 755 "$root/etc/fbanim"
fbanim_example_conf >"$root/etc/fbanim/fbanim.conf"
chmod 644 "$root/etc/fbanim/fbanim.conf"

# Documentation: the upstream changelog, a Debian-format changelog.gz
# (native package), the machine-readable copyright.
gzip -9n -c CHANGELOG.md >"$root$DOCDIR/CHANGELOG.md.gz"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
{
    echo "fbanim ($VERSION) unstable; urgency=medium"
    echo
    echo "  * Built from commit $commit. The changes are in CHANGELOG.md.gz."
    echo
    echo " -- $MAINTAINER  $(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$root$DOCDIR/changelog.gz"
first="$(git log --reverse --format=%cd --date=format:%Y 2>/dev/null | awk 'NR == 1')"
years="$(LC_ALL=C date -u -d "@$SOURCE_DATE_EPOCH" +%Y)"
if [ -n "$first" ] && [ "$first" != "$years" ]; then years="$first-$years"; fi
sed -e "s|@MAINTAINER@|$MAINTAINER|" -e "s|@YEARS@|$years|" packaging/deb/copyright >"$root$DOCDIR/copyright"
install -d "$root/usr/share/lintian/overrides"
install -m 644 packaging/deb/lintian-overrides "$root/usr/share/lintian/overrides/fbanim"
chmod 644 "$root$DOCDIR"/*

# Maintainer scripts, with the list of units to enable.
units="$(fbanim_enabled_units | tr '\n' ' ')"
units="${units% }"
for s in postinst prerm postrm; do
    sed -e "s|@UNITS@|$units|" "packaging/deb/$s" >"$root/DEBIAN/$s"
    chmod 755 "$root/DEBIAN/$s"
done
echo /etc/fbanim/fbanim.conf >"$root/DEBIAN/conffiles"
chmod 644 "$root/DEBIAN/conffiles"

# md5sums of everything but the control files and conffiles.
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' |
    grep -v '^etc/' | LC_ALL=C sort | xargs -d '\n' md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums"

# Installed-Size as dpkg-gencontrol counts it: regular files and symlinks
# rounded up to KiB, 1 KiB for anything else.
installed_size="$(cd "$root" && find . -path ./DEBIAN -prune -o -printf '%y %s\n' |
    awk '$1 == "f" || $1 == "l" { k += int(($2 + 1023) / 1024); next } { k += 1 } END { print k }')"

cat >"$root/DEBIAN/control" <<CONTROL
Package: fbanim
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $installed_size
Recommends: initramfs-tools
Section: misc
Priority: optional
Description: boot splash and loader animations for framebuffers and DRM/KMS
 fbanim draws smooth, anti-aliased loader animations (ring, radar, spinner,
 orbit) on Linux framebuffers (fbdev) and DRM/KMS displays: HDMI monitors,
 Raspberry Pi DSI panels, small SPI screens. It is a lightweight
 alternative to Plymouth and psplash as a boot splash: it starts in the
 initramfs or early in systemd, shows the boot's progress, keeps the
 picture through shutdown and reboot, and accepts psplash's FIFO commands
 and Plymouth's client protocol, so existing scripts can drive it.
 .
 The package holds a single static executable, board profiles for
 Raspberry Pi displays, udev rules, systemd units and an initramfs-tools
 hook. Add "splash" to the kernel command line to use it; it stands down
 when Plymouth is installed and enabled.
CONTROL
chmod 644 "$root/DEBIAN/control"

# Directories 755, owned by root (--root-owner-group), mtimes clamped.
find "$root" -type d -exec chmod 755 {} +
find "$root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch --no-dereference -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$REPO/.build"
out="$REPO/.build/fbanim_${VERSION}_${ARCH}.deb"
rm -f "$out"
dpkg-deb --build --root-owner-group "$root" "$out" >&2
log "$(du -k "$out" | cut -f1) KiB, Installed-Size $installed_size KiB"
echo "$out"
