#!/usr/bin/env bash
# Rules and search speed figures: perft from each game's start, then `otau bench` when present.
# Usage: scripts/bench.sh [-h] [depth]   (depth: Toguz Kumalak perft depth, default 8)
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,3p' "$0" | sed 's/^# //'
  exit 0
fi
depth="${1:-8}"
cd "$(dirname "$0")/.."
cargo build --release --quiet
otau=${CARGO_TARGET_DIR:-target}/release/otau
echo "== perft (leaf counts, time on one core)"
"$otau" perft --game toguz-kumalak --depth "$depth" 2>&1 | tail -2
"$otau" perft --game giuthi --depth 6 2>&1 | tail -2
if "$otau" bench --help >/dev/null 2>&1; then
  echo "== otau bench"
  "$otau" bench
fi
