#!/usr/bin/env bash
# Instructions per steady damage frame on ARM, counted by QEMU, and what
# they cost on a 1 GHz Cortex-A53 at 30 fps. A figure, never a test.
#
#     Scripts/arm-insns.sh [aarch64|armv7]     (default aarch64)
#     Scripts/arm-insns.sh [aarch64|armv7] --profile LOADER WxH FORMAT SCALE
#         where one case's steady instructions go, per function (top 15)
#
# Plays each loader through the frame scheduler at 30 fps on a virtual
# clock (Tests/ARM/main.swift, `play`), damage frames into one buffer as a
# display whose buffer holds the last frame (age 1), under qemu-user with a
# TCG plugin that counts every guest instruction executed
# (Tests/ARM/insn-count.c). Two runs per case: 2 cycles of warm-up then 1
# cycle, and the same then 2 cycles; their difference is one steady cycle
# (start-up, the first full frame, tables, kept coverage and exit cancel
# out), divided by the cycle's frame slots. "drawn" is the share of those
# slots that drew (the ring's arc stands still between some slots), "px"
# the pixels presented per slot.
#
# The Cortex-A53 is in-order and dual-issue: 2 instructions a cycle at
# best, about 1 for tight integer loops that hit L1, about 0.7 or below
# where loads miss or depend on each other. The table gives the CPU share
# at IPC 1.0 and 0.7: insns x 30 / (IPC x 1e9). It counts instructions
# only, not the memory traffic of 800x480 frames (1.5 MB at 32 bits).
#
# Needs the build of Scripts/arm-check.sh (it runs `Scripts/arm-check.sh
# ARCH` first when the binary is missing or older than a source: counts of
# a stale build would describe code that is gone).
set -euo pipefail
cd "$(dirname "$0")/.."
arch=aarch64
if [ $# -gt 0 ] && [ "$1" != --profile ]; then
    arch=$1
    shift
fi
profile=()
if [ $# -gt 0 ]; then
    if [ "$1" != --profile ] || [ $# -ne 5 ]; then
        echo "usage: Scripts/arm-insns.sh [aarch64|armv7] [--profile LOADER WxH FORMAT SCALE]" >&2
        exit 64
    fi
    profile=("$2" "$3" "$4" "$5")
fi
case "$arch" in
aarch64) qemu=(qemu-aarch64 -cpu cortex-a53) ;;
armv7) qemu=(qemu-arm -cpu cortex-a7) ;;
*)
    echo "usage: Scripts/arm-insns.sh [aarch64|armv7] [--profile LOADER WxH FORMAT SCALE]" >&2
    exit 64
    ;;
esac
out=.build/arm-check
bin=$out/$arch/arm-check
if [ ! -x "$bin" ] || [ -n "$(find Sources Tests/ARM Scripts/arm-check.sh -newer "$bin" -type f -print -quit)" ]; then
    Scripts/arm-check.sh "$arch" >&2
fi

toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")
plugin=$out/insn-count.so
if [ ! -f "$plugin" ] || [ Tests/ARM/insn-count.c -nt "$plugin" ] ||
    [ Tests/ARM/qemu-plugin.h -nt "$plugin" ]; then
    "$toolchain/clang" -O2 -shared -fPIC -fvisibility=hidden Tests/ARM/insn-count.c -o "$plugin"
fi

# Frame slots in one cycle at 30 fps (fbanim-bench's cycles).
cycle_slots() {
    case "$1" in
    ring) echo 915 ;;   # 30.5 s: the 0.5 s delay, then the 30 s fill
    radar) echo 90 ;;   # 3 s
    spinner) echo 54 ;; # 1.8 s
    orbit) echo 300 ;;  # 10 s (the hearts' 5 s and 2 s periods)
    esac
}

# count LOADER SIZE FORMAT SCALE SLOTS: prints "insns presented pixels".
count() {
    local log
    log=$("${qemu[@]}" -plugin "$plugin" "$bin" play "$@" 2>&1) || {
        echo "arm-insns: $bin play $* failed: $log" >&2
        exit 1
    }
    local insns presented pixels
    insns=$(sed -n 's/^insns: //p' <<<"$log")
    presented=$(sed -n 's/.* \([0-9]*\) presented.*/\1/p' <<<"$log")
    pixels=$(sed -n 's/.* presented, \([0-9]*\) px.*/\1/p' <<<"$log")
    echo "$insns $presented $pixels"
}

if [ ${#profile[@]} -gt 0 ]; then
    # The same two runs, counted per block; their difference per function.
    n=$(cycle_slots "${profile[0]}")
    if [ -z "$n" ]; then
        echo "arm-insns: no loader ${profile[0]}" >&2
        exit 64
    fi
    for k in 3 4; do
        "${qemu[@]}" -plugin "$plugin,blocks=$out/blocks-$k.txt" "$bin" play "${profile[@]}" \
            $((k * n)) >/dev/null 2>&1
    done
    "$toolchain/llvm-nm" -n --defined-only "$bin" >"$out/symbols.txt"
    echo "arm-insns: $arch, ${profile[*]}: instructions per steady frame slot, by function"
    python3 - "$out/symbols.txt" "$out/blocks-3.txt" "$out/blocks-4.txt" "$n" <<'PY' |
import bisect, sys
symbols = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 3 and f[1] in "tTwW":
        symbols.append((int(f[0], 16) & ~1, f[2]))  # bit 0: a Thumb function
symbols.sort()
starts = [a for a, _ in symbols]
def per_function(path):
    sums = {}
    for line in open(path):
        address, count = line.split()
        i = bisect.bisect_right(starts, int(address, 16)) - 1
        name = symbols[i][1] if i >= 0 else "?"
        sums[name] = sums.get(name, 0) + int(count)
    return sums
a, b = per_function(sys.argv[2]), per_function(sys.argv[3])
slots = int(sys.argv[4])
steady = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
total = sum(steady.values())
for name, count in sorted(steady.items(), key=lambda x: -x[1])[:15]:
    print(f"{count / slots:12.0f} {100 * count / total:5.1f}%  {name}")
print(f"{total / slots:12.0f} 100.0%  (all)")
PY
        "$toolchain/swift-demangle" --simplified | cut -c1-150
    exit 0
fi

echo "arm-insns: $arch (${qemu[*]}), instructions per steady frame slot at 30 fps (one cycle)"
printf '%-8s %-9s %-9s %-5s %12s %6s %8s %16s %16s\n' loader size format scale \
    "insns/frame" drawn "px" "A53 IPC 1.0" "A53 IPC 0.7"
for c in "320x240 rgb565 1" "800x480 xrgb8888 1" "800x480 xrgb8888 2"; do
    read -r size format scale <<<"$c"
    for loader in ring radar spinner orbit; do
        n=$(cycle_slots "$loader")
        read -r i1 p1 x1 < <(count "$loader" "$size" "$format" "$scale" $((3 * n)))
        read -r i2 p2 x2 < <(count "$loader" "$size" "$format" "$scale" $((4 * n)))
        awk -v l="$loader" -v s="$size" -v f="$format" -v k="$scale" -v n="$n" \
            -v di=$((i2 - i1)) -v dp=$((p2 - p1)) -v dx=$((x2 - x1)) 'BEGIN {
            per = di / n
            printf "%-8s %-9s %-9s %-5s %12.0f %5.0f%% %8.0f %6.2f ms %5.1f%% %6.2f ms %5.1f%%\n",
                l, s, f, k, per, 100 * dp / n, dx / n,
                per / 1e6, per * 30 / 1e9 * 100, per / 0.7 / 1e6, per * 30 / 0.7e9 * 100
        }'
    done
done
echo "A53 columns: ms per frame at 1 GHz and CPU share at 30 fps = insns x 30 / (IPC x 1e9)"
