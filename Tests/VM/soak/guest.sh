#!/bin/sh
# In the VM: `fbanim splash` on the display for SECONDS while feed.py feeds
# its channels garbage; VmRSS every 10 s into OUT/rss, the books at the end
# (--stats json, after SIGTERM) into OUT/stats.json, its log into OUT/err.
#     guest.sh FBANIM SECONDS OUT
set -u
bin=$1 seconds=$2 out=$3
here=$(dirname "$0")
export PSPLASH_FIFO_DIR=/run FBANIM_STATE_DIR=/run/fbanim-soak NOTIFY_SOCKET=
"$bin" splash --device /dev/dri/card0 --stats json spinner >"$out/stats.json" 2>"$out/err" &
pid=$!
for _ in $(seq 50); do [ -p /run/psplash_fifo ] && break; sleep 0.2; done
python3 "$here/feed.py" "$bin" "$seconds" /run/psplash_fifo /org/freedesktop/plymouthd "$out/fed" 2>"$out/feed.err" &
feeder=$!
start=$(cut -d' ' -f1 /proc/uptime)
: >"$out/rss"
while kill -0 "$feeder" 2>/dev/null; do
    now=$(cut -d' ' -f1 /proc/uptime)
    echo "$now $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null)" >>"$out/rss"
    sleep 10
done
kill -TERM "$pid"
wait "$pid"
echo "$?" >"$out/status"
echo "$start $(cut -d' ' -f1 /proc/uptime)" >"$out/span"
