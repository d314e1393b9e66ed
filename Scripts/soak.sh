#!/usr/bin/env bash
# Soak: plays every loader for FRAMES frames (default 10^6) on a simulated
# display with its virtual clock (frames as fast as they are drawn), with
# the message and the progress changing all the time, and checks that its
# memory does not grow.
#
#     Scripts/soak.sh [FRAMES]
#
# radar, spinner and orbit run as `fbanim splash LOADER --mode update
# --device sim:96x96?clock=virtual --scale 0.25 --frames FRAMES` with a
# FIFO and a Plymouth socket of their own (PSPLASH_FIFO_DIR,
# FBANIM_PLYMOUTH_SOCKET). Each gets `PROGRESS n` and a new `MSG` (a new
# text to lay out, never seen before) on the FIFO every 2 ms, `fbanim ctl
# message` and `ctl progress` on the socket every 2 s and `ctl
# hide-message` every 5 s. The splash's ring moves only when its progress
# does, and the virtual clock leaps over slots where nothing moves: fed
# from outside, 10^6 of its frames pass in milliseconds, before a feeder
# could open the FIFO. So the ring runs as `fbanim ring` (its spinning arc
# drawn every frame, with a message) for its frames. The resident size
# (VmRSS, /proc/PID/status) is read every 50 ms.
#
# Warm-up is the first quarter of the samples, and at least 3 s: the
# display, the font and its glyphs, the kept coverage (768 KiB, outlines
# counted) fill there, and the allocator settles; with a new message every
# 2 ms, RSS was flat after 2.5 s at most in every trial. The run fails
# when the median RSS of the last quarter after warm-up exceeds the median
# of the first quarter after it by more than FBANIM_SOAK_TOLERANCE_KB
# (default 256 KiB, 64 pages). Medians, as messages of changing lengths
# move RSS by up to 250 KiB from one sample to the next; half the judged
# run lies between the two quarters, so over 10^6 frames a leak of half a
# byte a frame, or of a few bytes a message, shows. It also fails when a run
# does not exit 0 after exactly its slots. A run too short to judge (under
# 16 samples after warm-up: a quiet machine plays 10^6 orbit frames in
# under 4 s) is played again with four times the frames, up to 64 times
# FRAMES, before that fails too.
#
# The small picture keeps 10^6 radar frames to a few minutes (the code
# paths are those of any size). FBANIM_BIN names the binary (default
# .build/release/fbanim, built if missing); FBANIM_SOAK_LOADERS chooses loaders.
set -euo pipefail
cd "$(dirname "$0")/.."

frames=${1:-1000000}
tolerance=${FBANIM_SOAK_TOLERANCE_KB:-256}
if ! [[ "$frames" =~ ^[0-9]+$ ]] || [ "$frames" -lt 1000 ]; then
    echo "usage: Scripts/soak.sh [FRAMES] (at least 1000)" >&2
    exit 64
fi
bin=${FBANIM_BIN:-.build/release/fbanim}
if [ ! -x "$bin" ]; then swift build -c release --product fbanim; fi
bin=$(realpath "$bin")

work=$(mktemp -d)
pid=
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
    rm -rf "$work"
}
trap cleanup EXIT
export PSPLASH_FIFO_DIR=$work FBANIM_STATE_DIR=$work/state NOTIFY_SOCKET=
export FBANIM_PLYMOUTH_SOCKET=/fbanim-soak/$$
fifo=$work/psplash_fifo

rss() { # VmRSS of $pid in KiB, or nothing once it is gone.
    local key value rest
    {
        while read -r key value rest; do
            if [ "$key" = VmRSS: ]; then echo "$value"; return; fi
        done <"/proc/$pid/status"
    } 2>/dev/null || true
}

failed=0
printf '%-8s %8s %7s %9s %8s %8s %8s %8s %7s %6s\n' loader frames wall_s us/frame \
    warm_kb early_kb late_kb peak_kb growth ctl >&2
for loader in ${FBANIM_SOAK_LOADERS:-ring radar spinner orbit}; do
    # A run too short to judge is played again with four times the frames.
    run_frames=$frames
    while :; do
        common=(--device 'sim:96x96?clock=virtual' --scale 0.25 --frames "$run_frames" --stats json)
        if [ "$loader" = ring ]; then
            "$bin" ring "${common[@]}" --message "Starting" >"$work/$loader.json" 2>"$work/$loader.err" &
        else
            "$bin" splash "$loader" --mode update "${common[@]}" --config "$work/none.conf" \
                --message "Starting" >"$work/$loader.json" 2>"$work/$loader.err" &
        fi
        pid=$!
        start=$(date +%s.%N)
        feeder=
        if [ "$loader" != ring ]; then
            # The first frames come at once: wait for the FIFO without sleeping (10 s at most).
            SECONDS=0
            until [ -p "$fifo" ] || ((SECONDS >= 10)) || ! kill -0 "$pid" 2>/dev/null; do :; done
            [ -p "$fifo" ] || { echo "soak: $loader: no FIFO: $(cat "$work/$loader.err")" >&2; exit 1; }
            # Read-write: the open never blocks, and a splash gone does not fail the writes.
            exec 3<>"$fifo"
            # The feeder: PROGRESS and a new MSG every 2 ms (read -t on a FIFO
            # nobody writes to is a sleep without a process).
            mkfifo "$work/idle"
            (
                exec 5<>"$work/idle"
                i=0
                while :; do
                    i=$((i + 1))
                    printf 'PROGRESS %d\n' $((i % 101))
                    printf 'MSG Updating firmware: part %d of %d\0' "$i" "$frames"
                    read -r -t 0.002 -u 5 _ || true
                done
            ) >&3 2>/dev/null &
            feeder=$!
        fi
        samples=()
        tick=0
        calls=0
        while kill -0 "$pid" 2>/dev/null; do
            tick=$((tick + 1))
            if [ -n "$feeder" ] && ((tick % 40 == 0)); then
                "$bin" ctl message "ctl says $tick (åäö €)" --timeout 2 2>/dev/null || true
                "$bin" ctl progress $((tick * 7 % 101)) --timeout 2 2>/dev/null || true
                calls=$((calls + 2))
            fi
            if [ -n "$feeder" ] && ((tick % 100 == 0)); then
                "$bin" ctl hide-message --timeout 2 2>/dev/null || true
                calls=$((calls + 1))
            fi
            value=$(rss)
            [ -n "$value" ] && samples+=("$value")
            sleep 0.05
        done
        if [ -n "$feeder" ]; then
            kill "$feeder"
            wait "$feeder" 2>/dev/null || true
            rm -f "$work/idle"
            exec 3>&-
        fi
        status=0
        wait "$pid" || status=$?
        pid=
        wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
        stats=$(cat "$work/$loader.json")
        slots=$(echo "$stats" | sed -n 's/.*"frames_presented":\([0-9]*\).*"frames_dropped":\([0-9]*\).*/\1 + \2/p')
        slots=$((${slots:-0}))
        n=${#samples[@]}
        if [ "$status" != 0 ] || [ "$slots" != "$run_frames" ] || [ "$n" -lt 8 ]; then
            echo "soak: $loader: exit $status, $slots of $run_frames slots, $n samples:" \
                "$(head -c 500 "$work/$loader.err")" >&2
            failed=1
            break
        fi
        # Warm-up: the first quarter of the samples, at least 3 s (60 samples).
        warmup=$((n / 4 > 60 ? n / 4 : 60))
        post=$((n - warmup))
        if ((post < 16)); then
            # Too fast to judge (a quiet machine): the same again, longer.
            if ((run_frames < frames * 64)); then
                echo "soak: $loader: $n samples in $wall s, too few after a warm-up of" \
                    "$warmup: again with $((run_frames * 4)) frames" >&2
                run_frames=$((run_frames * 4))
                continue
            fi
            echo "soak: $loader: $n samples, too few after a warm-up of $warmup: more frames" >&2
            failed=1
            break
        fi
        q=$((post / 4))
        median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
        max() { printf '%s\n' "$@" | sort -n | tail -1; }
        warm=${samples[$((warmup - 1))]}
        early=$(median "${samples[@]:warmup:q}")
        late=$(median "${samples[@]:n-q}")
        peak=$(max "${samples[@]}")
        growth=$((late - early))
        printf '%-8s %8d %7.1f %9.1f %8d %8d %8d %8d %7d %6d\n' "$loader" "$run_frames" "$wall" \
            "$(awk -v w="$wall" -v f="$run_frames" 'BEGIN { print w * 1e6 / f }')" "$warm" "$early" \
            "$late" "$peak" "$growth" "$calls" >&2
        if ((growth > tolerance)); then
            echo "soak: $loader: RSS grew by $growth KiB after warm-up (tolerance $tolerance KiB)" >&2
            failed=1
        fi
        break
    done
done
if [ "$failed" != 0 ]; then exit 1; fi
echo "soak: every loader flat after warm-up (at least $frames frames each, tolerance $tolerance KiB)" >&2
