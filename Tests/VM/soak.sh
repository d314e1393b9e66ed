#!/usr/bin/env bash
# The splash for a long time on a real kernel's display (bochs-drm 480x320 in
# the VM harness), its psplash FIFO, Plymouth socket and `fbanim ctl` fed
# garbage the whole time (Tests/VM/soak/feed.py; never a quit). Passes when
# the splash exits 0 on SIGTERM at the end, its books are consistent
# (presented + dropped = the slots of its duration, within 2, and that
# duration the whole run but the seconds it was handed over), no `ctl`
# failed, and its RSS did not grow after the first minute (the median of the
# last third of the samples within 64 KiB of the first third's).
#
#     FBANIM_BIN=.build/release/fbanim Tests/VM/soak.sh [SECONDS]   # default 3600
#
# Not part of Scripts/test.sh (an hour); prints the figures. Needs what
# Tests/VM/run.sh needs (Scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-3600}"
bin="$(realpath "${FBANIM_BIN:-.build/release/fbanim}")"
out="$(mktemp -d "${TMPDIR:-/tmp}/fbanim-soak.XXXXXX")"
[ -n "${FBANIM_SOAK_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
echo "soak: $seconds s of the splash on bochs-drm 480x320 with garbage on its channels"
Tests/VM/harness/vm-run.sh --display bochs --size 480x320 --mem 512M \
    --timeout "$((seconds + 300))" --rw "$out" -- \
    "$PWD/Tests/VM/soak/guest.sh" "$bin" "$seconds" "$out" >"$out/vm.log" 2>&1 || {
    echo "FAIL soak: the VM run failed"
    tail -n 20 "$out/vm.log"
    exit 1
}
python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
fails = []
status = open(f"{out}/status").read().strip()
if status != "0": fails.append(f"splash exit status {status}")
s = json.load(open(f"{out}/stats.json"))
slots = s["duration_s"] * s["fps_target"]
booked = s["frames_presented"] + s["frames_dropped"]
if abs(booked - slots) > 2: fails.append(f"books: {booked} presented+dropped for {slots:.1f} slots")
fed = dict(kv.split("=") for kv in open(f"{out}/fed").read().split())
if int(fed["ctl_failed"]): fails.append(f"{fed['ctl_failed']} ctl commands failed")
start, end = map(float, open(f"{out}/span").read().split())
handed = float(fed["handed_over_s"])
if s["duration_s"] < end - start - handed - 2:
    fails.append(f"the books cover {s['duration_s']:.1f} s of a {end - start:.1f} s run "
                 f"handed over for {handed:.1f} s")
rss = [(float(t), int(v)) for t, v in (l.split() for l in open(f"{out}/rss") if len(l.split()) == 2)]
t0 = rss[0][0]
# Warm-up: the first minute (a quarter of a shorter run): fonts, caches.
warm = min(60, (rss[-1][0] - t0) / 4)
steady = [v for t, v in rss if t - t0 >= warm]
third = max(1, len(steady) // 3)
first, last = statistics.median(steady[:third]), statistics.median(steady[-third:])
if last - first > 64: fails.append(f"RSS grew {last - first:.0f} KiB after warm-up")
lines = sum(1 for _ in open(f"{out}/err"))
print(f"soak: {s['duration_s']:.0f} s, {s['frames_presented']} presented, {s['frames_dropped']} dropped, "
      f"{s['frames_late']} late, p50 {s['frame_ms']['p50']} ms, p99 {s['frame_ms']['p99']} ms, max {s['frame_ms']['max']} ms")
print(f"soak: fed fifo={fed['fifo']} socket={fed['socket']} ctl={fed['ctl']} (failed {fed['ctl_failed']}); "
      f"{lines} log lines; handed over {handed:.0f} s")
print(f"soak: VmRSS {rss[0][1]} KiB at start, {min(steady)}-{max(steady)} KiB after {warm:.0f} s "
      f"({len(steady)} samples), median first third {first:.0f}, last third {last:.0f}")
for f in fails: print("FAIL soak:", f)
print("PASS soak" if not fails else f"soak: {len(fails)} failed")
sys.exit(1 if fails else 0)
PY
