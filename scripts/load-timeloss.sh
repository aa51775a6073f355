#!/usr/bin/env bash
# Time losses under load: starts HOGS CPU hogs (`yes > /dev/null`), then plays otau against
# otau at a fixed time per move (`st=0.1`) and on a clock (`tc=2+0.02`), each with the arena's
# and the engine's default margins, and counts the games lost on time; kills the hogs at the end
# (and on Ctrl-C). The load average is sampled through the run, and so is how late a 1 ms sleep
# wakes up (a probe at the engines' priority): a move is lost on time whatever its margin when
# the machine holds a process back for longer than the move, so the probe's tail says which
# losses the machine made. Each match keeps a protocol log, from which every time loss is
# told apart: how late the engine read `go` (the first `info`'s arrival less the engine's own
# `time`), and the engine's own time at its last `info` (its clock starts when it reads `go`):
# a loss whose engine read `go` late, or whose own time is far under the move, was the machine's
# holding the engine back outside its clock; one whose own time is over the move, the margin's.
#
#   scripts/load-timeloss.sh [GAMES] [HOGS]       (defaults: 20 games a match, 8 hogs)
#   OTAU=path/to/otau scripts/load-timeloss.sh    (another engine build, e.g. the one before a
#                                                  change; both sides play it)
#   TCS="st=0.1 st=0.2 tc=2+0.02" scripts/load-timeloss.sh   (the matches to play)
#
# A measurement, not a test: its figures depend on the machine and on what else runs on it.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
games=${1:-20}
hogs=${2:-8}
tcs=${TCS:-"st=0.1 tc=2+0.02"}
cargo build --release --quiet --bin otau --bin otau-arena
release=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
arena=$release/otau-arena
otau=${OTAU:-$release/otau}
work=$(mktemp -d)
hog_pids=()
sampler=
probe=
cleanup() {
    for p in "${hog_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
    [ -n "$probe" ] && kill "$probe" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$hogs"); do
    yes >/dev/null &
    hog_pids+=($!)
done
(while sleep 2; do cut -d' ' -f1 /proc/loadavg; done >"$work/load.txt") &
sampler=$!
if command -v python3 >/dev/null; then
    # Wake-up lateness of a 1 ms sleep, in ms, one figure a wake-up, until the run ends.
    python3 -c '
import sys, time
out = open(sys.argv[1], "w")
while True:
    a = time.monotonic(); time.sleep(0.001)
    out.write("%.3f\n" % ((time.monotonic() - a - 0.001) * 1000))
' "$work/wake.txt" &
    probe=$!
fi
sleep 5 # let the load average climb before the first game
echo "engine: $otau; $hogs hogs; $games games a match; $(nproc) cores"
total=0
for tc in $tcs; do
    out=$work/${tc//[^a-z0-9]/_}.jsonl
    start=$(date +%s)
    "$arena" --engine name=a cmd="$otau" --engine name=b cmd="$otau" --each "$tc" \
        --games "$games" --concurrency 1 --seed 1 --openings plies=6 --quiet \
        --out "$out" --log "$work/protocol.log" >"$work/table.txt" 2>"$work/err.txt" \
        || { cat "$work/err.txt"; exit 1; }
    played=$(grep -c '"event":"game"' "$out" || true)
    lost=$(grep '"event":"game"' "$out" | grep -c '"kind":"time-loss"' || true)
    total=$((total + lost))
    echo "$tc: $lost time losses in $played games ($(( $(date +%s) - start )) s)"
    grep '"kind":"time-loss"' "$out" | grep -o '"detail":"[^"]*"' | sort | uniq -c | head -5 || true
    # Each late move of the log: sent `go` at G; first info at F with engine time T0; the move
    # or `stop` after the allowance; the last info's engine time T1.
    awk '
        function secs(t) { gsub(/[][]/, "", t); split(t, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
        / ---> [^ ]+ : go / { sent = secs($1); first = -1; own = -1; next }
        / <--- [^ ]+ : info / && sent {
            for (i = 1; i < NF; i++) if ($i == "time") { own = $(i + 1); if (first < 0) first = (secs($1) - sent) * 1000 - own }
            next
        }
        / ---> [^ ]+ : stop/ && sent { late = 1; next }
        / <--- [^ ]+ : bestmove/ && sent {
            if (late) printf "  late move: read go %.0f ms after it was sent; own time at its last info %d ms\n", first, own
            sent = 0; late = 0
        }' "$work/protocol.log" | head -10
    rm -f "$work/protocol.log"
done
awk '{ s += $1; if ($1 > m) m = $1 } END { if (NR) printf "load average (1 min): mean %.1f, max %.1f (%d samples)\n", s / NR, m, NR }' "$work/load.txt"
if [ -s "$work/wake.txt" ]; then
    sort -n "$work/wake.txt" | awk '{ v[NR] = $1 } END { printf "wake-up lateness of a 1 ms sleep: p99 %.1f ms, p99.9 %.1f ms, max %.1f ms (%d wake-ups)\n", v[int(NR * 0.99)], v[int(NR * 0.999)], v[NR], NR }'
fi
echo "time losses: $total"
