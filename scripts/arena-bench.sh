#!/usr/bin/env bash
# Arena throughput and footprint: two instant external engines (`otau` at depth=1) at
# concurrency 2; prints plies/s, the arena's own CPU time per ply, and the arena's memory (RSS)
# and open files sampled through the run (they must stay flat).
# Then the arena's CPU a ply against the pipe floor, at concurrency 1 and 2: FLOOR_GAMES games
# of two instant engines (the arena's test engine `fake-engine ok`) against the same plies of
# scripts/pipe-floor.rs (one write and one read a ply, nothing else), each floor measured just
# before and just after its arena run (their mean is the floor); prints the ratio.
#
#   scripts/arena-bench.sh [GAMES]            (default 2000; the issue's soak is 10000; 0 skips)
#   ENGINE=fake scripts/arena-bench.sh        (the arena's test engine instead of otau)
#   FLOOR_GAMES=400 scripts/arena-bench.sh    (default 400; 0 skips the floor comparison)
#   ARENA=path/to/otau-arena scripts/arena-bench.sh   (another build of the arena, e.g. before)
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
games=${1:-2000}
cargo build --release --quiet --bin otau --bin otau-arena
release=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
arena=${ARENA:-$release/otau-arena}
arena=$(cd "$(dirname "$arena")" && pwd)/$(basename "$arena")
floor_games=${FLOOR_GAMES:-400}
engine=${ENGINE:-otau}
if [ "$engine" = otau ]; then
    # `otau` speaks UGI once the engine loop is in the build; check before relying on it.
    if ! printf 'ugi\nquit\n' | timeout 5 "$release/otau" 2>/dev/null | grep -q '^ugiok'; then
        echo "$release/otau does not answer ugi in this build; using ENGINE=fake" >&2
        engine=fake
    fi
fi
if [ "$engine" = otau ]; then
    spec=(cmd="$release/otau")
else
    spec=(cmd="$arena" "args=fake-engine ok")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$floor_games" -gt 0 ]; then
    rustc -O --edition 2021 -o "$work/pipe-floor" scripts/pipe-floor.rs
fi
cd "$work"
if [ "$games" -gt 0 ]; then
    "$arena" --engine name=a "${spec[@]}" --engine name=b "${spec[@]}" --each depth=1 \
        --games "$games" --concurrency 2 --seed 1 --openings plies=6 --quiet \
        --out records.jsonl >table.txt 2>cost.txt &
    pid=$!
    samples=$work/samples.txt
    while kill -0 "$pid" 2>/dev/null; do
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l || true)
        [ -n "$rss" ] && echo "$rss $fds" >>"$samples"
        sleep 1
    done
    wait "$pid"
    cat table.txt
    echo "engine: $engine depth=1, $games games, concurrency 2"
    grep 'plies/s' cost.txt || cat cost.txt
    if [ -s "$samples" ]; then
        awk 'NR==1 {f=$1; ff=$2} {if ($1>m) m=$1; if ($2>mf) mf=$2; l=$1; lf=$2}
             END {printf "arena RSS KiB: first %d, max %d, last %d; open files: first %d, max %d, last %d (%d samples)\n", f, m, l, ff, mf, lf, NR}' "$samples"
    fi
    echo "records: $(wc -c <records.jsonl) bytes"
fi

[ "$floor_games" -gt 0 ] || exit 0
# The arena's CPU a ply against the pipe floor, in one run.
for c in 1 2; do
    f1=$("$work/pipe-floor" $((floor_games * 120)) "$c" | sed 's/.* \([0-9.]*\) us\/ply/\1/')
    "$arena" --engine name=a cmd="$arena" "args=fake-engine ok" \
        --engine name=b cmd="$arena" "args=fake-engine ok" --each depth=1 \
        --games "$floor_games" --concurrency "$c" --seed 1 --openings plies=6 --quiet \
        --out "floor-$c.jsonl" >/dev/null 2>"floor-cost-$c.txt"
    line=$(grep 'us/ply' "floor-cost-$c.txt")
    plies=$(echo "$line" | sed 's/^[^:]*: \([0-9]*\) plies.*/\1/')
    arena_us=$(echo "$line" | sed 's/.* \([0-9.]*\) us\/ply/\1/')
    f2=$("$work/pipe-floor" "$plies" "$c" | sed 's/.* \([0-9.]*\) us\/ply/\1/')
    awk -v c="$c" -v g="$floor_games" -v p="$plies" -v a="$arena_us" -v f1="$f1" -v f2="$f2" 'BEGIN {
        f = (f1 + f2) / 2
        printf "concurrency %d, %d games (%d plies): arena CPU %.1f us/ply, pipe floor %.1f us/ply (%.1f before, %.1f after): ratio %.2f\n", c, g, p, a, f, f1, f2, a / f
    }'
done
