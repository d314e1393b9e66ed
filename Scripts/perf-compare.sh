#!/usr/bin/env bash
# Whole-process CPU of fbanim against cairo 1.16 drawing the same frames
# (issue 14): for each loader and case, `fbanim --device
# 'sim:WxH:FORMAT?clock=virtual' --fps 30 --duration 20 [--scale S] LOADER`
# (600 frames on a simulated display with a virtual clock: no sleeping) and
# `cairo-compare LOADER WxH FORMAT S 600` (Scripts/cairo-compare), run
# alternately RUNS times each; prints the medians of their CPU time (perf
# stat's task-clock, or bash's `time` without perf) and their ratio. CPU time, not wall time, so other
# work on the machine matters less; a figure still varies by a few percent.
#
#     Scripts/perf-compare.sh [RUNS] [LOADER...]     (default 3, every loader)
#     Scripts/perf-compare.sh --instructions [LOADER...]
#
# --instructions counts, instead of CPU time, the user-space x86
# instructions each process executes (start-up, dynamic linking and exit
# included; the kernel's work on its behalf not), once each, under
# `qemu-x86_64 -cpu max` (so glibc and pixman take the paths they take
# here) with the TCG plugin of Tests/ARM/insn-count.c: the same
# figure every run, where CPU time varies by 30 % on a shared machine, so a
# change's effect shows. A proxy, not the measure: cairo's vector code does
# more a instruction, and page faults and system calls are not in it. Needs
# qemu-user (Scripts/setup.sh installs it).
#
# Needs a release build (`swift build -c release --product fbanim`; FBANIM
# names another binary) and libcairo2-dev, gcc and pkg-config. Not part of
# the tests: it prints figures and judges nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
instructions=false
if [ "${1:-}" = --instructions ]; then
    instructions=true
    shift
    set -- 1 "$@"
fi
runs=${1:-3}
shift || true
loaders=("$@")
[ ${#loaders[@]} -gt 0 ] || loaders=(ring radar spinner orbit)
fbanim=${FBANIM:-.build/release/fbanim}
[ -x "$fbanim" ] || {
    echo "perf-compare: no $fbanim: swift build -c release --product fbanim" >&2
    exit 66
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2046
gcc -O2 -o "$work/cairo-compare" Scripts/cairo-compare/cairo-compare.c \
    $(pkg-config --cflags --libs cairo) -lm

# CPU seconds of one run of "$@" (its output discarded): perf's task-clock
# (to the microsecond) where perf runs, else bash's user+sys (rounded to
# 1 ms each: about 10 % of a 10-20 ms run).
if perf stat -x, -e task-clock true >/dev/null 2>&1; then
    cpu() {
        perf stat -x, -e task-clock "$@" 2>&1 >/dev/null |
            awk -F, '/task-clock/ { printf "%.5f", $1 / 1000 }'
    }
else
    cpu() {
        local TIMEFORMAT='%3U %3S' t
        t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
        awk '{ printf "%.3f", $1 + $2 }' <<<"$t"
    }
fi
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

if $instructions; then
    command -v qemu-x86_64 >/dev/null || {
        echo "perf-compare: no qemu-x86_64 (apt-get install qemu-user)" >&2
        exit 69
    }
    toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")
    "$toolchain/clang" -O2 -shared -fPIC -fvisibility=hidden Tests/ARM/insn-count.c \
        -o "$work/insn-count.so"
    # Instructions of one run of "$@" (the plugin's last line on stderr).
    cpu() {
        qemu-x86_64 -cpu max -plugin "$work/insn-count.so" "$@" 2>&1 >/dev/null |
            awk '/^insns: / { n = $2 } END { print n }'
    }
    unit=ins
fi

printf '%-8s %-22s %10s %10s %7s\n' loader case "fbanim ${unit:-s}" "cairo ${unit:-s}" ratio
for size_format_scale in "800x480 xrgb8888 1" "800x480 xrgb8888 2" "320x240 rgb565 1"; do
    read -r size format scale <<<"$size_format_scale"
    for loader in "${loaders[@]}"; do
        f=() c=()
        for _ in $(seq "$runs"); do
            f+=("$(cpu "$fbanim" --device "sim:$size:$format?clock=virtual" --fps 30 \
                --duration 20 --scale "$scale" "$loader")")
            c+=("$(cpu "$work/cairo-compare" "$loader" "$size" "$format" "$scale" 600)")
        done
        fm=$(echo "${f[*]}" | median)
        cm=$(echo "${c[*]}" | median)
        printf '%-8s %-22s %10s %10s %6.1fx   (fbanim %s; cairo %s)\n' "$loader" \
            "$size $format x$scale" "$fm" "$cm" "$(awk -v a="$fm" -v b="$cm" 'BEGIN { print b / a }')" \
            "${f[*]}" "${c[*]}"
    done
done
