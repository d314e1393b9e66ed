#!/usr/bin/env bash
# How much code a frame runs after the sleep before it, per loader: the
# distinct translated blocks each wake-up executes and the blocks executed
# in all, counted by QEMU (Tests/ARM/frame-footprint.c). A figure, never a
# test.
#
#     Scripts/frame-footprint.sh [LOADER...]            (default every loader)
#     Scripts/frame-footprint.sh --profile LOADER       per function (top 40)
#
# Why it matters: in the VM of Tests/VM (QEMU TCG), where fbanim is compared
# with Plymouth (Scripts/vm-vs-plymouth.sh), a frame drawn after a sleep
# costs 3-11 times the same frame drawn without one, and the difference
# follows the code the frame runs (distinct blocks) more than its
# instructions; Scripts/vm-frame-cost.sh shows it in the guest. Natively
# it is there too, smaller (the orbit's frame takes 5 times as long). This
# counts it the same way on every run, without booting a VM. Set against
# the VM's figures (2026-12-02, four loaders), a distinct block cost about
# 0.5-0.7 us of a frame there and an execution some 7 ns (a dispatch: a
# branch taken in a pixel loop is one a pixel).
#
# Plays `fbanim --device sim:480x320 --fps 30 --duration 10 LOADER` on the
# real clock (so it sleeps once a frame) under qemu-x86_64 with the plugin;
# the first 200 wake-ups (start-up, the first cycle of new shapes) are left
# out. Needs a release build (`swift build -c release --product fbanim`;
# FBANIM names another binary) and qemu-user (Scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=
if [ "${1:-}" = --profile ]; then
    [ $# -eq 2 ] || {
        echo "usage: Scripts/frame-footprint.sh [LOADER...] | --profile LOADER" >&2
        exit 64
    }
    profile=$2
    set -- "$2"
fi
loaders=("$@")
[ ${#loaders[@]} -gt 0 ] || loaders=(ring radar spinner orbit)
fbanim=${FBANIM:-.build/release/fbanim}
[ -x "$fbanim" ] || {
    echo "frame-footprint: no $fbanim: swift build -c release --product fbanim" >&2
    exit 66
}
command -v qemu-x86_64 >/dev/null || {
    echo "frame-footprint: no qemu-x86_64 (apt-get install qemu-user)" >&2
    exit 69
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")
"$toolchain/clang" -O2 -shared -fPIC -fvisibility=hidden Tests/ARM/frame-footprint.c \
    -o "$work/frame-footprint.so"

for loader in "${loaders[@]}"; do
    line=$(qemu-x86_64 -cpu max -plugin "$work/frame-footprint.so,out=$work/blocks.txt" \
        "$fbanim" --device sim:480x320 --fps 30 --duration 10 "$loader" 2>&1 >/dev/null |
        grep '^wakeups:')
    printf '%-8s %s\n' "$loader" "$line"
done
[ -n "$profile" ] || exit 0

# Per function: the distinct blocks and the executions of a wake-up.
wakeups=$(awk '{ print $2 }' <<<"$line")
nm -n --defined-only "$fbanim" >"$work/symbols.txt"
echo "blocks executions  (a wake-up; top 40 by blocks)"
python3 - "$work/symbols.txt" "$work/blocks.txt" "$wakeups" <<'PY' | swift demangle --simplified
import bisect, sys
symbols = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 3 and f[1] in "tTwW":
        symbols.append((int(f[0], 16), f[2]))
symbols.sort()
starts = [a for a, _ in symbols]
wakeups = max(int(sys.argv[3]), 1)
sums = {}
for line in open(sys.argv[2]):
    address, distinct, executed = line.split()
    i = bisect.bisect_right(starts, int(address, 16)) - 1
    name = symbols[i][1] if i >= 0 else "?"
    d, e = sums.get(name, (0, 0))
    sums[name] = (d + int(distinct), e + int(executed))
for name, (d, e) in sorted(sums.items(), key=lambda x: -x[1][0])[:40]:
    print(f"{d / wakeups:6.1f} {e / wakeups:10.1f}  {name}")
d = sum(v[0] for v in sums.values())
e = sum(v[1] for v in sums.values())
print(f"{d / wakeups:6.1f} {e / wakeups:10.1f}  in all, {len(sums)} functions")
PY
