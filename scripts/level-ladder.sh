#!/usr/bin/env bash
# The strength ladder: each level against the next one up (and the baseline players against
# level 1), pairs of games from balanced random openings, at a time per move that lets level 20
# search. Set OTAU to a built binary to use it as is. Usage: scripts/level-ladder.sh [pairs] [movetime-ms] [concurrency] [levels...]
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
otau=${OTAU:-./target/release/otau}
[ -n "${OTAU:-}" ] || cargo build --release --quiet
run() {
    "$otau" selfplay --game toguz-kumalak --a "$1" --b "$2" \
        --pairs "$pairs" --plies 8 --balance 300 --seed 5 --concurrency "$concurrency" 2>/dev/null
}
run "name=random,player=random" "name=greedy,player=greedy"
run "name=greedy,player=greedy" "name=level-${levels[0]},level=${levels[0]},movetime=$movetime"
for ((i = 0; i + 1 < ${#levels[@]}; i++)); do
    lo=${levels[$i]}
    hi=${levels[$((i + 1))]}
    run "name=level-$lo,level=$lo,movetime=$movetime" "name=level-$hi,level=$hi,movetime=$movetime"
done
