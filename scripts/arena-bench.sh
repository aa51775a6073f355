#!/usr/bin/env bash
# Arena throughput and footprint: two instant external engines (`otau` at depth=1) at
# concurrency 2; prints plies/s, the arena's own CPU time per ply, and the arena's memory (RSS)
# and open files sampled through the run (they must stay flat).
# Then the arena's CPU a ply against the pipe floor, at concurrency 1 and 2: FLOOR_GAMES games
# of two instant engines (the arena's test engine `fake-engine ok`, depth=1) against the same
# games replayed by scripts/pipe-floor.rs (a ply: the position and `go` in one write, blocking
# reads until `bestmove`, nothing else; the games are those of a first, untimed arena run with
# the same seed), each floor measured just before and just after its arena run (their mean is
# the floor). Both floors are one pipe round trip a ply (one write each way, one wake-up):
#   - the fair floor ("ratio"): the same test engine on the same games, so the same bytes
#     written the same way after the same work (its `info` line and `bestmove` in one write,
#     after playing the move the position adds);
#   - the one-write floor: pipe-floor's own engine, which answers every `go` with the same two
#     lines in one write and does nothing else (it reads no position). Its engine is quicker,
#     so its reader more often finds the answer already there when it comes to read (on two
#     cores this floor is the lower); the arena's ratio to it is printed beside.
# Each floor also prints its reads a ply (its wake-ups). The comparison is repeated REPEAT times
# (default 3), each printed, then the median of the ratios (the machine is shared and noisy).
#
#   scripts/arena-bench.sh [GAMES]            (default 2000; the issue's soak is 10000; 0 skips)
#   ENGINE=fake scripts/arena-bench.sh        (the arena's test engine instead of otau)
#   FLOOR_GAMES=400 scripts/arena-bench.sh    (default 400; 0 skips the floor comparison)
#   REPEAT=5 scripts/arena-bench.sh           (the floor comparison's repetitions; default 3)
#   ARENA=path/to/otau-arena scripts/arena-bench.sh   (another build of the arena, e.g. before;
#                                                      the floor's test engine stays this build's)
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
repeat=${REPEAT:-3}
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
# The test engine is this build's whatever ARENA is, so that two builds play the same engine.
fake=$release/otau-arena
arena_run() { # CONCURRENCY OUT
    "$arena" --engine name=a cmd="$fake" "args=fake-engine ok" \
        --engine name=b cmd="$fake" "args=fake-engine ok" --each depth=1 \
        --games "$floor_games" --concurrency "$1" --seed 1 --openings plies=6 --quiet \
        --out "$2" >/dev/null 2>"$2.cost"
}
floor() { # CONCURRENCY 1|ENGINE...: "us/ply reads/ply"
    c=$1
    shift
    "$work/pipe-floor" "$c" games.jsonl "$@" |
        sed 's/.* \([0-9.]*\) reads a ply.* \([0-9.]*\) us\/ply/\2 \1/'
}
arena_run 1 games.jsonl
for c in 1 2; do
    for r in $(seq "$repeat"); do
        read -r fa ra < <(floor "$c" "$fake" fake-engine ok)
        read -r oa qa < <(floor "$c" 1)
        arena_run "$c" "floor-$c.jsonl"
        line=$(grep 'us/ply' "floor-$c.jsonl.cost")
        rm "floor-$c.jsonl"
        plies=$(echo "$line" | sed 's/^[^:]*: \([0-9]*\) plies.*/\1/')
        arena_us=$(echo "$line" | sed 's/.* \([0-9.]*\) us\/ply/\1/')
        read -r ob qb < <(floor "$c" 1)
        read -r fb rb < <(floor "$c" "$fake" fake-engine ok)
        awk -v c="$c" -v g="$floor_games" -v p="$plies" -v a="$arena_us" \
            -v fa="$fa" -v fb="$fb" -v ra="$ra" -v rb="$rb" \
            -v oa="$oa" -v ob="$ob" -v qa="$qa" -v qb="$qb" 'BEGIN {
            f = (fa + fb) / 2; o = (oa + ob) / 2
            printf "concurrency %d, %d games (%d plies): arena CPU %.1f us/ply; fair floor (the test engine) %.1f us/ply (%.1f before, %.1f after; %.2f reads a ply): ratio %.2f; one-write floor %.1f (%.1f, %.1f): ratio %.2f\n", c, g, p, a, f, fa, fb, (ra + rb) / 2, a / f, o, oa, ob, a / o
        }'
    done | tee "ratios-$c.txt"
    # The median of the repetitions' ratios: one loaded moment moves it less than a single run.
    sed 's/.*: ratio \([0-9.]*\);.*ratio \([0-9.]*\)$/\1 \2/' "ratios-$c.txt" |
        awk -v c="$c" '{ f[NR] = $1; o[NR] = $2 }
            function median(x, n,   i, j, t) {
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
            }
            END { printf "concurrency %d: median of %d runs: ratio %.2f to the fair floor, %.2f to the one-write floor\n", c, NR, median(f, NR), median(o, NR) }'
done
