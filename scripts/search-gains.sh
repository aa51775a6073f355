#!/usr/bin/env bash
# Elo of each search technique and of the evaluation: the full engine against the same engine
# with one technique turned off, at a fixed short time per move, pairs of games from balanced
# random openings. Set OTAU to a built binary to use it as is. Usage: scripts/search-gains.sh [pairs] [movetime-ms] [concurrency]
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
pairs=${1:-100}
movetime=${2:-20}
concurrency=${3:-2}
otau=${OTAU:-./target/release/otau}
[ -n "${OTAU:-}" ] || cargo build --release --quiet
for feature in tt quiescence positional-eval pvs lmr captures-first killers history tables; do
    "$otau" selfplay --game toguz-kumalak \
        --a "name=full,movetime=$movetime" \
        --b "name=no-$feature,movetime=$movetime,off=$feature" \
        --pairs "$pairs" --plies 8 --balance 300 --seed 7 --concurrency "$concurrency" 2>/dev/null
done
