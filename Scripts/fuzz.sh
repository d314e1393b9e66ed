#!/usr/bin/env bash
# Fuzzes a parser with libFuzzer (swiftc -sanitize=fuzzer, with
# AddressSanitizer), starting from small valid inputs, for SECONDS seconds
# (default 60). Builds in .build/fuzz: the fuzz targets are not part of a
# plain `swift build` (FBANIM_FUZZ=1 adds them to the package).
#
#     Scripts/fuzz.sh psf [SECONDS]
#
# Prints libFuzzer's closing statistics; a crash leaves its input as
# .build/fuzz/crash-* and exits non-zero. Replay one with
# `.build/fuzz/debug/psf-fuzz FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-}
seconds=${2:-60}
if [ "$target" != psf ] || ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
    echo "usage: Scripts/fuzz.sh psf [SECONDS]" >&2
    exit 64
fi

# --sanitize fuzzer reached only the executable's own module here (Swift
# 6.3): -Xswiftc gives every Swift module libFuzzer's coverage counters.
FBANIM_FUZZ=1 swift build --build-path .build/fuzz --product psf-fuzz \
    --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer 2>&1 |
    grep -v "Cannot export local symbol" >&2

corpus=.build/fuzz/corpus-psf
python3 Fuzz/PSF/seeds.py "$corpus"
cd .build/fuzz
# Inputs up to 64 KB (a 512-glyph 32x32 font is 64 KB); 10 s is a hang.
exec ./debug/psf-fuzz -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -print_final_stats=1 "corpus-psf"
