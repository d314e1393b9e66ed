#!/usr/bin/env bash
# What a frame costs in the VM of Tests/VM (QEMU TCG, bochs-drm), drawn with
# and without a sleep before it: each loader's drawing CPU per frame (p50 of
# `--stats text`) on the simulated display with a virtual clock (frames one
# after the other, no sleep), the same display on the real clock (a sleep
# before each frame), and /dev/dri/card0 and /dev/fb0 (as the boot and
# Scripts/vm-vs-plymouth.sh run it). A figure, never a test.
#
#     Scripts/vm-frame-cost.sh [WxH]      (default 480x320; about 3 minutes)
#
# The gap between the first two columns is the price of waking up: the
# same frames, the same code, only a 33 ms sleep between them (it follows
# the code a frame runs: Scripts/frame-footprint.sh counts that without a
# VM). "Drawing CPU" on the real clock also holds the wake-up itself (from
# the end of one frame to the end of the next, less the sleep).
#
# Needs root and what Tests/VM/harness/install.sh installs. FBANIM_BIN names
# the binary (default: the static release build Tests/VM/run.sh makes).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size=${1:-480x320}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || {
    echo "usage: $0 [WxH]" >&2
    exit 64
}
bin=${FBANIM_BIN:-}
if [ -z "$bin" ]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product fbanim \
        --scratch-path "$root/.build/vm-static" >/dev/null) || exit 1
    bin=$root/.build/vm-static/release/fbanim
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$(mktemp -d "${TMPDIR:-/tmp}/vm-frame-cost.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The guest sees the host's files: this script runs there, as root.
cat >"$work/in-guest.sh" <<EOF
#!/bin/sh
p50() { sed -n 's/.*drawing CPU p50 \([0-9.]*\) ms.*/\1/p'; }
printf '%-8s %12s %12s %12s %12s\n' loader 'sim virtual' 'sim real' 'DRM' 'fbdev'
for loader in ring radar spinner orbit; do
    a=\$($bin --device 'sim:$size?clock=virtual' --fps 30 --frames 600 --stats text \$loader 2>&1 | p50)
    b=\$($bin --device 'sim:$size' --fps 30 --frames 300 --stats text \$loader 2>&1 | p50)
    c=\$($bin --device /dev/dri/card0 --fps 30 --frames 300 --stats text \$loader 2>&1 | p50)
    d=\$($bin --device /dev/fb0 --fps 30 --frames 300 --stats text \$loader 2>&1 | p50)
    printf '%-8s %9s ms %9s ms %9s ms %9s ms\n' \$loader "\$a" "\$b" "\$c" "\$d"
done
EOF
chmod +x "$work/in-guest.sh"
"$root/Tests/VM/harness/vm-run.sh" --display bochs --size "$size" --timeout 400 -- "$work/in-guest.sh"
