#!/usr/bin/env bash
# Differential test at full size: every game's fast rules against the plain second
# implementations of tests/support/reference/, in release mode.
#
#   scripts/diff-test.sh [POSITIONS_PER_GAME] [SEED]
#
# Default 100,000 positions per game (the CI run uses 5,000). Each position compares the legal
# moves, the end and its totals, and the position after every legal move. Prints the counts.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
export OTAU_DIFF_POSITIONS=${1:-100000}
[ $# -ge 2 ] && export OTAU_DIFF_SEED=$2
time nice cargo test --release --test integration differential:: -- --nocapture --test-threads=1 2>&1 \
    | grep -E 'agree|test result|panicked|FAILED|error' 
