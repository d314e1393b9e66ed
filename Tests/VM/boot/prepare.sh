#!/bin/sh
# prepare.sh: vm-run.sh --prepare script of Tests/VM/boot.sh's systemd boots.
# Runs chrooted in the guest's throw-away root (an overlay of this
# machine's /) before systemd starts, as root. Environment (vm-run.sh --env):
#   BOOTTEST_CASE  main      the .deb, Plymouth switched off as the docs say
#                            (plymouth-start.service masked); a unit that takes
#                            a screendump while the system shuts down
#                  plymouth  the .deb, Plymouth installed and enabled
#                  late      as main, with the display driver left to udev's
#                            coldplug (boot.sh: --late-display), and a unit
#                            that SIGKILLs the splash once it shows
#                  faults    as main, with a garbage /etc/fbanim/fbanim.conf,
#                            /run and /var/lib/fbanim read-only to the splash,
#                            and a unit that, mid-boot, takes DRM master from
#                            the splash, switches VTs and unbinds and binds
#                            the display (faults.sh)
#   BOOTTEST_DEB   the package (Scripts/build-deb.sh), installed with dpkg -i
#   BOOTTEST_INSTALLED  or: install-snapshot.sh's tar of that install, unpacked
#   BOOTTEST_WORK  the work folder (vm-run.sh --rw), with kdmode in it
#   BOOTTEST_DIR   Tests/VM/boot (the host's root is the overlay's lower layer)
set -eu
W=$BOOTTEST_WORK
D=$BOOTTEST_DIR

# The package's maintainer scripts rebuild every initramfs (update-initramfs
# -u -k all); the guest never boots one (vm-run.sh brings its own), the
# initramfs case builds its own on the host with mkinitramfs, and a rebuild
# under TCG takes minutes. update-initramfs.conf's documented switch.
sed -i 's/^update_initramfs=.*/update_initramfs=no/' /etc/initramfs-tools/update-initramfs.conf

# This machine is a container image: its /usr/sbin/policy-rc.d (exit 101)
# forbids maintainer scripts to start or stop services (deb-systemd-invoke,
# invoke-rc.d). A booted Debian system has none.
rm -f /usr/sbin/policy-rc.d

# As a user installs it: dpkg, whose postinst enables the units. In the
# boots that do not test the package itself, the result of that dpkg -i,
# made on the host (install-snapshot.sh: the same files, unit links and
# dpkg database, 35 s cheaper under TCG).
if [ -n "${BOOTTEST_INSTALLED:-}" ]; then
    tar -C / -xpf "$BOOTTEST_INSTALLED"
else
    dpkg -i "$BOOTTEST_DEB"
fi

# Units of this machine that have nothing to do with a boot splash and take
# most of the way from basic.target to multi-user.target under TCG
# (vm-run.sh's README: postgresql@15-main 12.5 s, e2scrub_reap 8.8 s):
# masked, so the boots fit the CI's time. postgresql is a database server
# another project installed on this machine; e2scrub_reap removes stale
# ext4 LVM snapshots, of which the VM has none.
systemctl mask postgresql.service postgresql@15-main.service e2scrub_reap.service

# Plymouth is installed on this machine. The documented way to keep it and
# use fbanim (docs/boot-splash.md, "Plymouth"): mask its start unit and put
# plymouth.enable=0 on the kernel command line (boot.sh does that part).
[ "$BOOTTEST_CASE" = plymouth ] || systemctl mask plymouth-start.service

case $BOOTTEST_CASE in
main)
    # The boot history an earlier boot of this VM leaves (fbanim writes it
    # at quit: 25 units, 30.5 s measured), a little longer, as the ring's
    # measure: without one the ring shows the time since the kernel started
    # against 20 s, capped at 0.9, which a boot under TCG has passed before
    # the splash starts, and nothing would move.
    mkdir -p /var/lib/fbanim
    printf 'fbanim-boot-history 1\nunits 30\nseconds 40.0\n' > /var/lib/fbanim/boot-history
    # A screendump while systemd shuts down, taken when this unit is
    # stopped: after getty@tty1 (stopped before it, Before=), before the run
    # dir and the work folder are unmounted (RequiresMountsFor=) and before
    # journald. It waits for fbanim-poweroff.service (ready after its first
    # frame) itself: an ordering between the two would put this stop before
    # that start (systemd orders a stop before a start whichever way
    # After= points).
    cat > /etc/systemd/system/boottest-shutdown.service << UNIT
[Unit]
Description=boottest: screendump while the system shuts down
DefaultDependencies=no
After=systemd-journald.service
Before=getty@tty1.service
RequiresMountsFor=$VMRUN_DIR $W
Conflicts=shutdown.target
Before=shutdown.target
[Service]
Type=oneshot
RemainAfterExit=yes
Environment=VMRUN_DIR=$VMRUN_DIR VMRUN_SCREENDUMP=$VMRUN_SCREENDUMP
ExecStart=/bin/true
ExecStop=/bin/sh $D/shutdown-dump.sh $W
TimeoutStopSec=60
UNIT
    systemctl add-wants sysinit.target boottest-shutdown.service
    ;;
faults)
    # The history a boot leaves (as in main), in a folder the splash may
    # read but not write.
    mkdir -p /var/lib/fbanim
    printf 'fbanim-boot-history 1\nunits 30\nseconds 40.0\n' > /var/lib/fbanim/boot-history
    # A configuration file that is garbage: binary bytes among lines that
    # look like settings (the same bytes every time).
    printf 'loader = teapot\nfps = 5\n\377\376\000\001 = = =\n[board]\ncolor = \033[31m\n' > /etc/fbanim/fbanim.conf
    head -c 3000 /bin/sh >> /etc/fbanim/fbanim.conf
    # /run read-only to the splash (no FIFO, no pid file) and its history
    # folder too (nothing learned is kept). The start bounded as in late.
    mkdir -p /etc/systemd/system/fbanim-splash.service.d
    printf '[Service]\nReadOnlyPaths=/run /var/lib/fbanim\nTimeoutStartSec=90\n' \
        > /etc/systemd/system/fbanim-splash.service.d/boottest.conf
    cat > /etc/systemd/system/boottest-faults.service << UNIT
[Unit]
Description=boottest: faults under the boot splash once it shows
DefaultDependencies=no
After=fbanim-splash.service
[Service]
Type=oneshot
TimeoutStartSec=480
Environment=VMRUN_DIR=$VMRUN_DIR VMRUN_SCREENDUMP=$VMRUN_SCREENDUMP
ExecStart=/bin/sh $D/faults.sh $W
UNIT
    systemctl add-wants sysinit.target boottest-faults.service
    for u in fbanim-quit plymouth-quit; do
        mkdir -p "/etc/systemd/system/$u.service.d"
        printf '[Unit]\nAfter=boottest-faults.service\n' > "/etc/systemd/system/$u.service.d/boottest.conf"
    done
    ;;
late)
    # SIGKILL to the splash once it is ready (its first frame is on the
    # screen: After= a Type=notify unit waits for READY=1), mid-boot: what
    # ends the splash at the end of the boot waits for it (fbanim-quit, and
    # plymouth-quit, whose `plymouth quit` reaches fbanim too), or with the
    # display late the splash could be quit before it is killed. The
    # splash's start is bounded here (90 s), so that a display that never
    # comes fails the test instead of holding the boot.
    cat > /etc/systemd/system/boottest-kill.service << UNIT
[Unit]
Description=boottest: SIGKILL the boot splash once it shows
DefaultDependencies=no
After=fbanim-splash.service
[Service]
Type=oneshot
Environment=VMRUN_DIR=$VMRUN_DIR VMRUN_SCREENDUMP=$VMRUN_SCREENDUMP
ExecStart=/bin/sh $D/kill-splash.sh $W
UNIT
    systemctl add-wants sysinit.target boottest-kill.service
    for u in fbanim-quit plymouth-quit; do
        mkdir -p "/etc/systemd/system/$u.service.d"
        printf '[Unit]\nAfter=boottest-kill.service\n' > "/etc/systemd/system/$u.service.d/boottest.conf"
    done
    mkdir -p /etc/systemd/system/fbanim-splash.service.d
    printf '[Service]\nTimeoutStartSec=90\n' > /etc/systemd/system/fbanim-splash.service.d/boottest.conf
    ;;
esac
echo "boottest: prepared ($BOOTTEST_CASE)"
