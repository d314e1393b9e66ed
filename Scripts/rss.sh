#!/usr/bin/env bash
# Peak resident memory of fbanim playing (issue 14 keeps it under 10 MiB at
# 800x480): for each loader at scale 1 and 2, `fbanim --device
# 'sim:800x480:xrgb8888?clock=virtual' --fps 30 --duration 60 --scale S
# LOADER` (1800 frames on the simulated display, no sleeping), its peak RSS
# in KB (`/usr/bin/time -f %M`, package time). Prints one
# line a case and exits 1 when one is at or over the limit (10240 KB, or
# FBANIM_RSS_LIMIT). About 3 s.
#
#     Scripts/rss.sh            # the table
#     Scripts/rss.sh --order    # rewrite Sources/fbanim/hot-symbols.txt, then the table
#
# --order traces which functions the eight plays (and one on the real
# clock, one with a message) run (qemu-x86_64 -d
# in_asm, from Scripts/setup.sh's qemu-user), in the order they first run,
# and writes them to Sources/fbanim/hot-symbols.txt, the order lld lays out
# fbanim's code in (Package.swift, hotCodeFirst). Functions that share one
# big section with others (whole objects of libc, FreeType, Swift modules
# built without function sections, the standard library's unsplit part) go
# last: their section comes along whole, so placing them early would spread
# the functions a play runs apart. Needs a release build (`swift build -c
# release --product fbanim`, run here for --order; FBANIM names another
# binary for the table).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${FBANIM_RSS_LIMIT:-10240}
loaders=(spinner orbit ring radar)
device='sim:800x480:xrgb8888?clock=virtual'

if [ "${1:-}" = "--order" ]; then
    command -v qemu-x86_64 >/dev/null || {
        echo "rss: no qemu-x86_64 (qemu-user, Scripts/setup.sh)" >&2
        exit 69
    }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # A relink only: the map names each function's section and its size.
    swift build -c release --product fbanim -Xlinker -Map="$work/fbanim.map" 2>&1 |
        grep -v "warning: Using '" || true
    traces=()
    for loader in "${loaders[@]}"; do
        for scale in 2 1; do
            qemu-x86_64 -d in_asm -D "$work/$loader-$scale.log" .build/release/fbanim \
                --device "$device" --fps 30 --duration 3 --scale "$scale" "$loader" >/dev/null
            traces+=("$work/$loader-$scale.log")
        done
    done
    # And on the real clock, which sleeps between frames.
    qemu-x86_64 -d in_asm -D "$work/real.log" .build/release/fbanim \
        --device "${device%%\?*}" --fps 30 --duration 1 --scale 2 spinner >/dev/null
    traces+=("$work/real.log")
    # And with a message (FreeType), last: a play without one comes first.
    qemu-x86_64 -d in_asm -D "$work/message.log" .build/release/fbanim \
        --device "$device" --fps 30 --duration 3 --message 'Loading...' spinner >/dev/null
    traces+=(+ "$work/message.log")
    python3 - "$work/fbanim.map" Sources/fbanim/hot-symbols.txt "${traces[@]}" <<'EOF'
import re, sys
map_file, out, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
# Groups of traces, "+" between them: a later group's functions all come
# after an earlier one's.
groups, seen = [[]], set()
for trace in traces:
    if trace == "+":
        groups.append([])
        continue
    for line in open(trace, errors="replace"):
        if line.startswith("IN: "):
            name = line[4:].strip()
            if name and name not in seen:
                seen.add(name)
                groups[-1].append(name)
# lld's map: input sections at 8 spaces of indentation after the alignment,
# their symbols at 16.
section_size, size = {}, 0
for line in open(map_file):
    m = re.match(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ {9}\S", line)
    if m:
        size = int(m.group(1), 16)
        continue
    m = re.match(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+ {17}(\S.*)$", line)
    if m:
        section_size.setdefault(m.group(1), size)
if not section_size:
    sys.exit("rss: no sections in the link map (is fbanim linked with lld?)")
layout, shared = [], 0
for order in groups:
    big = [s for s in order if section_size.get(s, 0) > 32768]
    layout += [s for s in order if section_size.get(s, 0) <= 32768] + big
    shared += len(big)
open(out, "w").write("\n".join(layout) + "\n")
print(f"rss: {len(layout)} functions run, {shared} of them in sections over 32 KiB (last)")
EOF
    rm -f .build/release/fbanim # the order file is no input SwiftPM knows of
    swift build -c release --product fbanim 2>&1 | grep -v "warning: Using '" | tail -1
fi

fbanim=${FBANIM:-.build/release/fbanim}
[ -x "$fbanim" ] || {
    echo "rss: no $fbanim: swift build -c release --product fbanim" >&2
    exit 66
}
[ -x /usr/bin/time ] || {
    echo "rss: no /usr/bin/time (apt-get install time)" >&2
    exit 69
}
over=0
echo "peak RSS, $device, --fps 30 --duration 60 (KB; limit $limit)"
for loader in "${loaders[@]}"; do
    line=$(printf '%-8s' "$loader")
    for scale in 1 2; do
        # GNU time forks from a small process: a child of a big one (Python,
        # a shell with much loaded) carries the parent's peak past exec.
        kb=$(/usr/bin/time -f %M "$fbanim" --device "$device" --fps 30 --duration 60 \
            --scale "$scale" "$loader" 2>&1 >/dev/null | tail -1)
        mark=""
        [ "$kb" -lt "$limit" ] || {
            mark=" OVER"
            over=$((over + 1))
        }
        line+=$(printf '  x%s %6s%s' "$scale" "$kb" "$mark")
    done
    echo "$line"
done
if [ "$over" -eq 0 ]; then echo "all under the limit"; else echo "$over over the limit"; fi
[ "$over" -eq 0 ]
