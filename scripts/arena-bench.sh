#!/usr/bin/env bash
# Arena throughput and footprint: two instant external engines (`otau` at depth=1) at
# concurrency 2; prints plies/s, the arena's own CPU time per ply, and the arena's memory (RSS)
# and open files sampled through the run (they must stay flat).
#
#   scripts/arena-bench.sh [GAMES]            (default 2000; the issue's soak is 10000)
#   ENGINE=fake scripts/arena-bench.sh        (the arena's test engine instead of otau)
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
games=${1:-2000}
cargo build --release --quiet --bin otau --bin otau-arena
release=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
arena=$release/otau-arena
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
cd "$work"
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
