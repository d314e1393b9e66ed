#!/usr/bin/env bash
# Fuzzes a parser of outside input with libFuzzer (swiftc -sanitize=fuzzer,
# with AddressSanitizer) for SECONDS seconds each (default 60), starting
# from the corpus kept in Fuzz/<Target>/corpus (or made by a seeds script).
# Builds in .build/fuzz: the fuzz targets are not part of a plain `swift
# build` (FBANIM_FUZZ=1 adds them to the package).
#
#     Scripts/fuzz.sh psf|psplash|plymouth|cmdline|profile|all [SECONDS]
#
# Prints libFuzzer's closing statistics for each; a crash leaves its input
# as .build/fuzz/crash-* and exits non-zero. Replay one with
# `.build/fuzz/debug/TARGET-fuzz FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(psf psplash plymouth cmdline profile)
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
    echo "usage: Scripts/fuzz.sh psf|psplash|plymouth|cmdline|profile|all [SECONDS]" >&2
    exit 64
fi

for target in "$@"; do
    # --sanitize fuzzer reached only the executable's own module here (Swift
    # 6.3): -Xswiftc gives every Swift module libFuzzer's coverage counters.
    FBANIM_FUZZ=1 swift build --build-path .build/fuzz --product "$target-fuzz" \
        --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer 2>&1 |
        grep -v "Cannot export local symbol" >&2 || true
    [ -x ".build/fuzz/debug/$target-fuzz" ] || { echo "fuzz: $target-fuzz did not build" >&2; exit 1; }
    corpus=.build/fuzz/corpus-$target
    mkdir -p "$corpus"
    case $target in
    psf) python3 Fuzz/PSF/seeds.py "$corpus" ;;
    psplash) cp Fuzz/Psplash/corpus/* "$corpus"/ ;;
    plymouth) cp Fuzz/Plymouth/corpus/* "$corpus"/ ;;
    cmdline) cp Fuzz/CommandLine/corpus/* "$corpus"/ ;;
    profile) cp Fuzz/Profile/corpus/* "$corpus"/ ;;
    esac
    echo "fuzz: $target for $seconds s" >&2
    # Inputs up to 64 KB (a 512-glyph 32x32 font is 64 KB); 10 s is a hang.
    (cd .build/fuzz && ./debug/"$target"-fuzz -max_total_time="$seconds" -max_len=65536 \
        -timeout=10 -print_final_stats=1 "corpus-$target" 2>&1 |
        grep -E "^(stat::|Done|==|SUMMARY|INFO: Seed)|ERROR|crash-" ) || {
        echo "fuzz: $target found a problem (see above; inputs in .build/fuzz)" >&2
        exit 1
    }
done
