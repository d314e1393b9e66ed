#!/bin/sh
# Sweeps present_ms x --fps on simulated displays, on the virtual clock and
# on the real one, and counts the runs that break the books:
#   presents: frames_presented x present_ms <= duration + one present (a
#             display never presents faster than it can);
#   clocks:   the virtual and the real clock's frames_presented differ by
#             at most 2 (the virtual clock skips waits, not drawing).
# Prints one line per run that breaks one, then the totals; exits 1 when
# any did. Real-clock runs take their time: with the defaults, 8 x 6 runs
# of 2 s (about 100 s; SIM_SWEEP_SECONDS shortens them).
#
#   Scripts/sim-sweep.sh [path/to/fbanim]   (default .build/release/fbanim)
set -eu
bin=${1:-.build/release/fbanim}
seconds=${SIM_SWEEP_SECONDS:-2}
loader=${SIM_SWEEP_LOADER:-ring}
presents="${SIM_SWEEP_PRESENT_MS:-0 5 10 16 25 33.3 50 99}"
rates="${SIM_SWEEP_FPS:-10 24 30 50 60 120}"
[ -x "$bin" ] || { echo "sim-sweep: no fbanim at $bin (swift build -c release --product fbanim)" >&2; exit 2; }

field() { # field NAME JSON: a number at the top of the object
    printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"
}

runs=0 broken=0 clockmax=0 started=$(date +%s)
for p in $presents; do
    for f in $rates; do
        v=$("$bin" --device "sim:320x240?present_ms=$p&clock=virtual" --fps "$f" \
            --duration "$seconds" --stats json "$loader")
        r=$("$bin" --device "sim:320x240?present_ms=$p" --fps "$f" \
            --duration "$seconds" --stats json "$loader")
        for clock in virtual real; do
            [ $clock = virtual ] && j=$v || j=$r
            n=$(field frames_presented "$j") d=$(field duration_s "$j")
            runs=$((runs + 1))
            if ! awk -v n="$n" -v p="$p" -v d="$d" 'BEGIN { exit !(n * p / 1000 <= d + p / 1000 + 1e-9) }'; then
                broken=$((broken + 1))
                echo "presents: present_ms=$p fps=$f $clock: $n presents of $p ms in $d s"
            fi
        done
        nv=$(field frames_presented "$v") nr=$(field frames_presented "$r")
        gap=$((nv > nr ? nv - nr : nr - nv))
        [ $gap -gt $clockmax ] && clockmax=$gap
        if [ $gap -gt 2 ]; then
            broken=$((broken + 1))
            echo "clocks: present_ms=$p fps=$f: $nv presents on the virtual clock, $nr on the real one"
        fi
    done
done
echo "sim-sweep: $loader, $runs runs of $seconds s, $broken violations," \
    "largest clock gap $clockmax frames, $(($(date +%s) - started)) s"
[ $broken -eq 0 ]
