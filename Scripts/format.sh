#!/usr/bin/env bash
# Formats every Swift file in place with the toolchain's swift-format, then
# lints; run before committing. `--check` only lints (exit 1 on findings).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.swift')
if [ "${1:-}" != "--check" ]; then
    swift format format --in-place --parallel $files
fi
swift format lint --parallel $files
