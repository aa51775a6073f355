#!/usr/bin/env bash
# The strength ladder: each level against the next one up (and the baseline players against
# level 1), pairs of games from balanced random openings, at a time per move that lets level 20
# search, played by otau-arena with built-in engines (a move may come up to 1 s late: the load
# of the machine is not what is measured). Prints each match's Elo, score and
# pentanomial lines. Set OTAU_ARENA to a built otau-arena to use it as is.
# Usage: scripts/level-ladder.sh [pairs] [movetime-ms] [concurrency] [levels...]
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
pairs=${1:-50}
movetime=${2:-50}
concurrency=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(1 4 7 10 13 16 20)
arena=${OTAU_ARENA:-${CARGO_TARGET_DIR:-target}/release/otau-arena}
[ -n "${OTAU_ARENA:-}" ] || cargo build --release --quiet --bin otau-arena
st=$(printf '%d.%03d' $((movetime / 1000)) $((movetime % 1000)))
# One match: two engines, each given as its arena keys in one word (split at spaces).
run() {
    # shellcheck disable=SC2086
    "$arena" --quiet --game toguz-kumalak --engine $1 --engine $2 \
        --each "st=$st" timemargin=1000 option.Hash=16 \
        --rounds "$pairs" --openings plies=8 policy=balanced margin=300 depth=6 \
        --seed 5 --concurrency "$concurrency" 2>/dev/null |
        sed -n '/^Results of/,/^Ptnml/p; /, endings: /p'
}
level() {
    echo "name=level-$1 cmd=builtin:otau option.Level=$1"
}
run "name=random cmd=builtin:random" "name=greedy cmd=builtin:greedy"
run "name=greedy cmd=builtin:greedy" "$(level "${levels[0]}")"
for ((i = 0; i + 1 < ${#levels[@]}; i++)); do
    run "$(level "${levels[$i]}")" "$(level "${levels[$((i + 1))]}")"
done
