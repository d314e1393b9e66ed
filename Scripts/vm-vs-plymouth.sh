#!/usr/bin/env bash
# Scripts/vm-vs-plymouth.sh: fbanim's CPU against Plymouth's, on the same
# kernel and emulated display, in the VM of Tests/VM (QEMU TCG, Debian kernel,
# bochs-drm).
#
#   Scripts/vm-vs-plymouth.sh [ROUNDS [SECONDS [WxH]]]     (default 3 10 480x320)
#
# Each round runs, one after the other, in fresh VMs and measured the same
# way by Tests/VM/plymouth-cpu.sh (the splash process's CPU time over a
# SECONDS window, read inside the guest, after a 3 s warm-up; screendumps
# prove the frames change): Plymouth's spinner theme on DRM, fbanim's ring and
# spinner at 30 fps on /dev/dri/card0, then the same three on fbdev (Plymouth's
# frame-buffer renderer, fbanim on /dev/fb0). The runs alternate so that a
# change in the host's load touches all of them; one run varies by 10-20 %.
# The figures are CPU-seconds of the emulated CPU per second.
#
# Prints one line per run, then per display the median of each and fbanim's
# ratio to Plymouth. About 35 s a run (ROUNDS x 6 runs). Not part of CI.
#
# Needs root, what Tests/VM/harness/install.sh installs, and
# `apt-get install -y --no-install-recommends plymouth plymouth-themes procps`.
# Environment: FBANIM_BIN (default: build the static release Tests/VM/run.sh
# builds), PLY_OUT (where the runs' folders go), NICE (default -5: the VM's
# niceness, so that builds on the host disturb the emulated CPU less; 0 for none).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3} secs=${2:-10} size=${3:-480x320}
bench=$root/Tests/VM/plymouth-cpu.sh
[[ $rounds =~ ^[1-9][0-9]*$ && $secs =~ ^[1-9][0-9]*$ && $size =~ ^[0-9]+x[0-9]+$ ]] || {
    echo "usage: $0 [ROUNDS [SECONDS [WxH]]]" >&2
    exit 2
}
command -v plymouthd > /dev/null || {
    echo "vm-vs-plymouth: plymouthd missing (apt-get install plymouth plymouth-themes procps)" >&2
    exit 2
}
# Without it every run would fail alike (plymouth-cpu.sh's error goes unseen).
[ -f /usr/share/plymouth/themes/spinner/spinner.plymouth ] || {
    echo "vm-vs-plymouth: Plymouth's spinner theme missing (apt-get install plymouth-themes)" >&2
    exit 2
}
bin=${FBANIM_BIN:-}
if [ -z "$bin" ]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product fbanim \
        --scratch-path "$root/.build/vm-static" > /dev/null) || exit 1
    bin=$root/.build/vm-static/release/fbanim
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
nice=${NICE:--5}
results=$(mktemp "${TMPDIR:-/tmp}/vm-vs-plymouth.XXXXXX")
trap 'rm -f "$results"' EXIT

run() { # DISPLAYKIND NAME: one measurement, its CPU per second appended to $results
    local kind=$1 name=$2 line cpu
    case $name in
    plymouth)
        unset PLY_CMD PLY_RENDERER
        if [ "$kind" = fb ]; then export PLY_RENDERER=fb; fi ;;
    *) unset PLY_RENDERER
        local dev=/dev/dri/card0
        [ "$kind" = fb ] && dev=/dev/fb0
        export PLY_CMD="$bin --device $dev --fps 30 $name" ;;
    esac
    line=$(nice -n "$nice" "$bench" bochs "$size" "$secs" 2> /dev/null)
    cpu=$(sed -n 's/.*cpu_per_s=\([0-9.]*\).*/\1/p' <<< "$line")
    if [ -z "$cpu" ] || [[ $line != *frames_changed=yes* ]]; then
        echo "$kind $name FAILED: ${line:-no result}"
        return
    fi
    echo "$kind $name cpu_per_s=$cpu"
    echo "$kind $name $cpu" >> "$results"
}

for ((r = 1; r <= rounds; r++)); do
    for kind in drm fb; do
        for name in plymouth ring spinner; do run "$kind" "$name"; done
    done
done
unset PLY_CMD PLY_RENDERER
for kind in drm fb; do
    awk -v k="$kind" '$1 == k { v[$2] = v[$2] " " $3 }
        END {
            split("plymouth ring spinner", names, " ")
            for (i = 1; i <= 3; i++) {
                n = split(v[names[i]], a, " ")
                if (n == 0) { m[names[i]] = 0; continue }
                for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) if (a[y] < a[x]) { t = a[x]; a[x] = a[y]; a[y] = t }
                m[names[i]] = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
                c[names[i]] = n
            }
            printf "median %s (%d runs each): plymouth %.4f", k, c["plymouth"], m["plymouth"]
            for (i = 2; i <= 3; i++)
                printf "  %s %.4f (%.2fx plymouth)", names[i], m[names[i]],
                    (m["plymouth"] > 0 ? m[names[i]] / m["plymouth"] : 0)
            printf " CPU-s/s\n"
        }' "$results"
done
