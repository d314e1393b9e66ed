#!/usr/bin/env bash
# fbanim from outside, as a hostile user (Tests/Hostile/cli.py and
# splash.py): random command lines and board files, and a splash whose
# control channels are fed garbage. CASES command lines and RUNS splashes
# (defaults 1500 and 40: about a minute and a half on 2 cores); SEED picks
# the inputs (default: a new one each run, printed, so a finding can be
# replayed with the same seed).
#
#     FBANIM_BIN=.build/release/fbanim Tests/Hostile/run.sh [CASES] [RUNS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(realpath "${FBANIM_BIN:-.build/release/fbanim}")"
cases="${1:-1500}"
runs="${2:-40}"
seed="${3:-$RANDOM}"
echo "hostile: seed $seed"
status=0
python3 Tests/Hostile/cli.py "$bin" "$cases" "$seed" | tail -n 40 || status=1
python3 Tests/Hostile/splash.py "$bin" "$runs" "$seed" | tail -n 20 || status=1
exit $status
