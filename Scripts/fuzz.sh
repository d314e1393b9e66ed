#!/usr/bin/env bash
# Fuzzes the parsers of outside input with libFuzzer (swiftc -sanitize=fuzzer,
# with AddressSanitizer) for SECONDS seconds each (default 60), starting
# from the corpus kept in Fuzz/<Target>/corpus (or made by a seeds script).
# Builds in .build/fuzz: the fuzz targets are not part of a plain `swift
# build` (FBANIM_FUZZ=1 adds them to the package).
#
#     Scripts/fuzz.sh TARGET|all [SECONDS]
#
# TARGET: psf (PSF fonts), psplash (the psplash FIFO stream), plymouth
# (Plymouth's protocol), cmdline (the kernel command line), profile (board
# profiles and fbanim.conf), device (--device names: sim:, drm:, fb:,
# paths), argv (fbanim's command line, every command, and splash's merge of
# it with the kernel command line, fbanim.conf and a board profile).
#
# Prints libFuzzer's closing statistics and one summary line for each
# (`fuzz: TARGET SECONDS s, N runs, ...`); a crash, a failed property or a
# hang (10 s on one input) leaves its input as .build/fuzz/crash-* (or
# timeout-*) and exits 1. Replay one with `.build/fuzz/debug/TARGET-fuzz FILE`.
# FBANIM_FUZZ_MERGE=1 adds the inputs that found new coverage to the corpus
# in the repository, minimised (-merge=1; not psf, whose seeds a script makes).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(psf psplash plymouth cmdline profile device argv)
which=${1:-}
seconds=${2:-60}
if [ "$which" = all ]; then
    set -- "${targets[@]}"
elif [[ " ${targets[*]} " == *" $which "* ]]; then
    set -- "$which"
else
    set -- ""
fi
if [ -z "${1:-}" ] || ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
    echo "usage: Scripts/fuzz.sh $(IFS='|'; echo "${targets[*]}")|all [SECONDS]" >&2
    exit 64
fi

# The folder under Fuzz/ of each target.
folder() {
    case $1 in
    psf) echo PSF ;; psplash) echo Psplash ;; plymouth) echo Plymouth ;;
    cmdline) echo CommandLine ;; profile) echo Profile ;; device) echo Device ;;
    argv) echo Argv ;;
    esac
}

for target in "$@"; do
    # --sanitize fuzzer reached only the executable's own module here (Swift
    # 6.3): -Xswiftc gives every Swift module libFuzzer's coverage counters.
    FBANIM_FUZZ=1 swift build --build-path .build/fuzz --product "$target-fuzz" \
        --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer 2>&1 |
        grep -v "Cannot export local symbol" >&2 || true
    [ -x ".build/fuzz/debug/$target-fuzz" ] || { echo "fuzz: $target-fuzz did not build" >&2; exit 1; }
    dir=Fuzz/$(folder "$target")
    corpus=.build/fuzz/corpus-$target
    rm -rf "$corpus"
    mkdir -p "$corpus"
    if [ "$target" = psf ]; then python3 "$dir/seeds.py" "$corpus"; fi
    if [ -d "$dir/corpus" ]; then cp "$dir"/corpus/* "$corpus"/; fi
    echo "fuzz: $target for $seconds s" >&2
    log=.build/fuzz/$target.log
    # Inputs up to 64 KB (a 512-glyph 32x32 font is 64 KB); 10 s is a hang.
    status=0
    (cd .build/fuzz && ./debug/"$target"-fuzz -max_total_time="$seconds" -max_len=65536 \
        -timeout=10 -print_final_stats=1 "corpus-$target" >"$target.log" 2>&1) || status=$?
    grep -E "^(stat::|Done|==|SUMMARY|INFO: Seed)|ERROR|crash-|timeout-|Fatal error|Precondition" \
        "$log" >&2 || true
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz: $target $seconds s, ${runs:-?} runs, corpus $(ls "$corpus" | wc -l) inputs," \
        "status $status" >&2
    if [ "$status" != 0 ]; then
        echo "fuzz: $target found a problem (see above and $log; inputs in .build/fuzz)" >&2
        exit 1
    fi
    if [ "${FBANIM_FUZZ_MERGE:-0}" = 1 ] && [ "$target" != psf ]; then
        mkdir -p "$dir/corpus"
        before=$(ls "$dir/corpus" | wc -l)
        (cd .build/fuzz && ./debug/"$target"-fuzz -merge=1 -max_len=65536 \
            "../../$dir/corpus" "corpus-$target" >"$target-merge.log" 2>&1)
        echo "fuzz: $target corpus $before -> $(ls "$dir/corpus" | wc -l) inputs" >&2
    fi
done
