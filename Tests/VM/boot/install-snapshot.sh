#!/usr/bin/env bash
# install-snapshot.sh DEB OUT.tar: installs DEB with `dpkg -i` into a
# throw-away overlay of this machine's / (entered with chroot, in a private
# mount namespace, as Tests/Packaging/dpkg-roundtrip.sh does) and writes
# what the install changed (the overlay's upper layer: the package's files,
# the unit links its postinst made with deb-systemd-helper, deb-systemd-
# helper's state, dpkg's database) as a tar for prepare.sh to unpack into a
# guest's root. The same result as dpkg -i inside the guest, without its
# cost under TCG (35 s: dpkg reads its database over 9p, and the postinst
# starts deb-systemd-helper, a perl script, 24 times). The boot that tests
# the package itself (case plymouth) runs dpkg -i in the guest.
# As in the guest, update-initramfs is switched off first (prepare.sh says why).
# Needs root and overlayfs.
set -euo pipefail
if [ "${1:-}" != --in-namespace ]; then
    exec unshare --mount --propagation private "$0" --in-namespace "$(realpath "$1")" "$(realpath -m "$2")"
fi
deb=$2 out=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/boottest-install.XXXXXX")
trap 'umount -R "$T" 2> /dev/null; rmdir "$T" 2> /dev/null' EXIT
mount -t tmpfs -o mode=0755 boottest "$T"
mkdir "$T/upper" "$T/work" "$T/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$T/upper,workdir=$T/work" "$T/root"
M=$T/root
mount -t proc proc "$M/proc"
mount --bind /dev "$M/dev"
mount -t tmpfs tmpfs "$M/run"
mount -t tmpfs tmpfs "$M/tmp"
cp "$deb" "$M/tmp/fbanim.deb"
chroot "$M" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 sh -c \
    'sed -i "s/^update_initramfs=.*/update_initramfs=no/" /etc/initramfs-tools/update-initramfs.conf &&
     dpkg -i /tmp/fbanim.deb' >&2
# Regular files, links and directories only: no overlayfs whiteouts (the
# install deletes nothing of the system's).
(cd "$T/upper" && find . -mindepth 1 \( -type f -o -type l -o -type d \) -print0 |
    LC_ALL=C sort -z | tar --null --no-recursion -cf "$out" -T -)
