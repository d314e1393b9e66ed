#!/usr/bin/env bash
# Runs every test of fbanim: the unit, oracle, golden-image and CLI tests
# (swift test), then builds the release binary and smoke-runs the benchmark
# (its figures are printed, never judged).
set -euo pipefail
cd "$(dirname "$0")/.."

"$(dirname "$0")/setup.sh"

swift build --build-tests
swift test --skip-build --parallel --num-workers 2

swift build -c release
.build/release/fbanim-bench --frames 20
