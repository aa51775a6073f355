#!/usr/bin/env bash
# The arena's memory against the games it holds (issue 33, items 1 and 4), in one run:
# 1. peak RSS of two runs of built-in players (builtin:random against builtin:greedy, depth=1,
#    games cut at --max-plies, concurrency 2) of 10^4 and of 10^5 games, and the growth between
#    them in bytes a game (the promise: at most 16);
# 2. a records file of FILE_GAMES games (default 10^7) made from a real run's header and its
#    first games (each game line copied with its number changed: the reader checks every line,
#    moves replayed), and the peak RSS of `ratings`, `report`, `merge` and `--resume` on it
#    (the promise: each under 100 MB).
#
#   scripts/memory-bench.sh [FILE_GAMES [SMALL LARGE]]   (default 10000000, 10000 100000)
#   ARENA=/path/to/otau-arena scripts/memory-bench.sh    (another build: a before figure)
#   MAX_PLIES=N (default 20), KEEP=1 (keep the work directory, in /tmp)
# The 10^7-game file takes about 6 GB of disk in the work directory; each command reads it in
# one to a few minutes. Run it niced on a shared machine.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
file_games=${1:-10000000}
small=${2:-10000}
large=${3:-100000}
max_plies=${MAX_PLIES:-20}
if [ -n "${ARENA:-}" ]; then
    arena=$(realpath "$ARENA")
else
    cargo build --release --quiet --bin otau-arena
    arena=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/otau-arena
fi
work=$(mktemp -d /tmp/otau-memory-bench.XXXXXX)
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; fi
cd "$work"
players=(--engine name=random cmd=builtin:random --engine name=greedy cmd=builtin:greedy
         --each depth=1 --max-plies "$max_plies" --seed 1)

# Peak RSS in KB of a command (its output kept in $work/NAME.out and .err).
peak() {
    local name=$1
    shift
    /usr/bin/time -o "$name.rss" -f %M "$@" >"$name.out" 2>"$name.err" || {
        echo "$name failed:" >&2
        tail -5 "$name.err" >&2
        exit 1
    }
    tail -1 "$name.rss"
}

echo "arena: $arena"
echo "== runs of built-in players (max-plies $max_plies, concurrency 2)"
declare -A rss
for n in "$small" "$large"; do
    rss[$n]=$(peak "run-$n" "$arena" "${players[@]}" --games "$n" --concurrency 2 --quiet \
        --out "run-$n.jsonl")
    echo "$n games: peak RSS ${rss[$n]} KB"
done
awk -v a="${rss[$small]}" -v b="${rss[$large]}" -v n="$small" -v m="$large" 'BEGIN {
    printf "growth: %.2f bytes a game between %d and %d games (promise: at most 16)\n",
        (b - a) * 1024 / (m - n), n, m }'
rm -f run-*.jsonl

echo "== a records file of $file_games games"
# A real run's header (its schedule is FILE_GAMES games) and its first 64 games.
"$arena" "${players[@]}" --games "$file_games" --concurrency 1 --quiet --out head.jsonl \
    >/dev/null 2>&1 &
pid=$!
while [ "$(cat head.jsonl 2>/dev/null | wc -l)" -lt 65 ]; do
    kill -0 "$pid" 2>/dev/null || { echo "the header run ended early" >&2; exit 1; }
    sleep 0.2
done
kill -INT "$pid"
wait "$pid" || true
python3 - "$file_games" <<'EOF'
import json, sys
n = int(sys.argv[1])
lines = open("head.jsonl").read().splitlines()
header, games = lines[0], {}
for line in lines[1:]:
    g = json.loads(line)
    if g.get("event") == "game" and g["index"] < 64:
        games.setdefault(g["index"], g)
assert len(games) == 64, f"{len(games)} of the first 64 games"
# Each template split around its number, pair and round: a line is the parts joined.
templates = []
for i in range(64):
    g = games[i]
    same_round = g["round"] == g["pair"]
    g["index"], g["pair"], g["round"] = -1111111, -2222222, -3333333
    text = json.dumps(g, separators=(",", ":"))
    a, rest = text.split("-1111111")
    b, rest = rest.split("-2222222")
    c, d = rest.split("-3333333")
    templates.append((a, b, c, d, same_round, games[i]))
with open("big.jsonl", "w") as out:
    out.write(header + "\n")
    for i in range(n):
        a, b, c, d, same_round, _ = templates[i % 64]
        pair = i // 2
        rnd = pair if same_round else 0
        out.write(f"{a}{i}{b}{pair}{c}{rnd}{d}\n")
EOF
echo "file: $(du -h big.jsonl | cut -f1), $(($(wc -l <big.jsonl) - 1)) games"
r=$(peak ratings "$arena" ratings big.jsonl)
echo "ratings: peak RSS $r KB"
r=$(peak report "$arena" report big.jsonl --out big.html)
echo "report: peak RSS $r KB ($(du -h big.html | cut -f1) page)"
r=$(peak merge "$arena" merge big.jsonl)
echo "merge: peak RSS $r KB"
r=$(peak resume "$arena" --resume big.jsonl --quiet)
echo "--resume: peak RSS $r KB"
