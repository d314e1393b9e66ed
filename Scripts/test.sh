#!/usr/bin/env bash
# Runs every test of fbanim: the unit, oracle, golden-image and CLI tests
# (swift test), then builds the release binary and smoke-runs the benchmarks
# (their times are printed, never judged; a steady frame that allocates on
# the heap fails the run).
set -euo pipefail
cd "$(dirname "$0")/.."

"$(dirname "$0")/setup.sh"

# Real console fonts, where setup.sh fetched them (the PSF tests).
if [ -z "${FBTEXT_CONSOLEFONTS:-}" ] && [ -d .build/consolefonts ]; then
    export FBTEXT_CONSOLEFONTS=$PWD/.build/consolefonts
fi

swift build --build-tests
swift test --skip-build --parallel --num-workers 2

# The pure core (FBRaster, FBScheduler, FBAnimation) as Embedded Swift on
# aarch64, armv7 and armv6 under QEMU: every loader's frames in every pixel
# format must equal the x86 build's (README, ARM). About 3 minutes.
# FBANIM_SKIP_ARM=1 skips it.
if [ "${FBANIM_SKIP_ARM:-0}" != 1 ]; then
    Scripts/arm-check.sh
fi

swift build -c release
# Examples/: a user's own package (docs/write-your-own-loader.md) against
# this one, built and played on a simulated display. About 3 minutes.
swift build --package-path Examples
Examples/.build/debug/pulse 'sim:160x120?clock=virtual' --frames 30
.build/release/fbanim-bench --frames 20 --check-allocations
# Peak RSS of every loader at 800x480, scale 1 and 2, under 10 MiB (issue
# 14's keep list; Scripts/rss.sh, about 3 s). Measured, not timed: a
# figure over the limit fails the run.
Scripts/rss.sh
.build/release/fbtext-bench --runs 20

# Hostile input and long runs (issue 13). Every libFuzzer target
# (Scripts/fuzz.sh: PSF fonts, the psplash FIFO, Plymouth's protocol, the
# kernel command line, board profiles and fbanim.conf, --device names,
# fbanim's command line) for 15 s from its corpus: a crash, a broken
# property or a hang fails. A longer run is `Scripts/fuzz.sh all 600`.
# FBANIM_SKIP_FUZZ=1 skips it.
if [ "${FBANIM_SKIP_FUZZ:-0}" != 1 ]; then
    Scripts/fuzz.sh all "${FBANIM_FUZZ_SECONDS:-15}"
fi
# The test suite under AddressSanitizer (C code under UBSan too), in
# .build/asan (Scripts/sanitize.sh). FBANIM_SKIP_SANITIZE=1 skips it.
if [ "${FBANIM_SKIP_SANITIZE:-0}" != 1 ]; then
    Scripts/sanitize.sh
fi
# Soak: 10^6 frames of each loader on the virtual clock with the message
# and progress changing, RSS flat after warm-up (Scripts/soak.sh). About 2
# minutes: the orbit's frames are so cheap that fewer pass before its
# 3 s warm-up is over. FBANIM_SKIP_SOAK=1 skips it.
if [ "${FBANIM_SKIP_SOAK:-0}" != 1 ]; then
    FBANIM_BIN=.build/release/fbanim Scripts/soak.sh 1000000
fi
# fbanim from outside as a hostile user (Tests/Hostile): 1500 random command
# lines and board files, 40 splashes fed garbage on every channel, from a
# fixed seed (`Tests/Hostile/run.sh` alone draws a new one each run). About
# 2 minutes. FBANIM_SKIP_HOSTILE=1 skips it.
if [ "${FBANIM_SKIP_HOSTILE:-0}" != 1 ]; then
    FBANIM_BIN=.build/release/fbanim Tests/Hostile/run.sh 1500 40 1
fi

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
