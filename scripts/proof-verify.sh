#!/usr/bin/env bash
# What checking a proof against the tables it rests on costs: solves Giuthi 2x5 (giuthi-5x4)
# from the start over a table of SEEDS seeds (12 by default: seconds) into a fresh folder, then
# times `--verify` and `--verify --rebuild-tables` (Giuthi's table is built anew at every run and
# its SHA-256 compared with the proof's). Set OTAU to a built otau to use it as is.
# Usage: scripts/proof-verify.sh [seeds]
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
seeds=${1:-12}
otau=${OTAU:-${CARGO_TARGET_DIR:-target}/release/otau}
[ -n "${OTAU:-}" ] || cargo build --release --quiet --bin otau
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timed() {
    local label=$1 start end
    shift
    start=$(date +%s.%N)
    "$otau" solve --game giuthi-5x4 --table-stones "$seeds" --hash 64 --dir "$dir" "$@" \
        >"$dir/out" 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
    end=$(date +%s.%N)
    printf '%-32s %6.2f s wall   %s\n' "$label" "$(echo "$end - $start" | bc)" \
        "$(grep '^proof /' "$dir/out")"
}
timed "solve (search, save, check)"
timed "--verify" --verify
timed "--verify --rebuild-tables" --verify --rebuild-tables
