#!/usr/bin/env bash
# Elo of each search technique and of the evaluation: the full engine against the same engine
# with one technique turned off (the built-in engine's hidden tuning options, protocol/ugi.md),
# at a fixed short time per move, pairs of games from balanced random openings, played by
# otau-arena (a move may come up to 1 s late: the load of the machine is not what is measured).
# Prints each match's Elo, score and pentanomial lines. Set OTAU_ARENA to a built
# otau-arena to use it as is. Usage: scripts/search-gains.sh [pairs] [movetime-ms] [concurrency]
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
pairs=${1:-100}
movetime=${2:-20}
concurrency=${3:-2}
arena=${OTAU_ARENA:-${CARGO_TARGET_DIR:-target}/release/otau-arena}
[ -n "${OTAU_ARENA:-}" ] || cargo build --release --quiet --bin otau-arena
st=$(printf '%d.%03d' $((movetime / 1000)) $((movetime % 1000)))
# technique option: the switch of each technique (otau's UseXXX options).
for pair in tt:UseTT quiescence:UseQuiescence positional-eval:UsePositionalEval pvs:UsePVS \
    lmr:UseLMR captures-first:UseCapturesFirst killers:UseKillers history:UseHistory \
    tables:UseTables; do
    feature=${pair%%:*}
    option=${pair#*:}
    "$arena" --quiet --game toguz-kumalak \
        --engine name=full cmd=builtin:otau \
        --engine "name=no-$feature" cmd=builtin:otau "option.$option=false" \
        --each "st=$st" timemargin=1000 option.Hash=16 \
        --rounds "$pairs" --openings plies=8 policy=balanced margin=300 depth=6 \
        --seed 7 --concurrency "$concurrency" 2>/dev/null |
        sed -n '/^Results of/,/^Ptnml/p; /, endings: /p'
done
