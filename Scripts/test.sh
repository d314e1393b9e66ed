#!/usr/bin/env bash
# Runs every test of fbanim: the unit, oracle, golden-image and CLI tests
# (swift test), then builds the release binary and smoke-runs the benchmarks
# (their times are printed, never judged; a steady frame that allocates on
# the heap fails the run).
set -euo pipefail
cd "$(dirname "$0")/.."

"$(dirname "$0")/setup.sh"

swift build --build-tests
swift test --skip-build --parallel --num-workers 2
[ "${FBANIM_SKIP_ARM:-0}" = 1 ] || Scripts/arm-check.sh # the pure core on ARM under QEMU, about 3 min (README, ARM)

swift build -c release
swift build --package-path Examples && Examples/.build/debug/pulse 'sim:160x120?clock=virtual' --frames 30 # Examples/: a user's package (docs/write-your-own-loader.md), built and played; ~3 min
.build/release/fbanim-bench --frames 20 --check-allocations
.build/release/fbtext-bench --runs 20

# The boot files and the Debian package (Tests/Packaging/run.sh): builds the
# .deb from the release binary just built, checks it, builds an initramfs
# with the hook, installs and purges the package in a throw-away root.
# About a minute. FBANIM_SKIP_PACKAGING=1 skips it.
if [ "${FBANIM_SKIP_PACKAGING:-0}" != 1 ]; then
    FBANIM_BIN=.build/release/fbanim Tests/Packaging/run.sh
fi

# fbanim on real kernel display drivers (bochs-drm, virtio-gpu, vkms) in
# QEMU, with the harness in Tests/VM/harness (setup.sh, run above, installs
# what it needs), then the boot splash booted as a user boots (the .deb
# under systemd, the initramfs hook, hand-over, shutdown: Tests/VM/boot.sh).
# About 8-10 minutes (FBANIM_VM_ONLY chooses boots). FBANIM_SKIP_VM=1 skips it.
if [ "${FBANIM_SKIP_VM:-0}" != 1 ]; then
    Tests/VM/run.sh
fi
