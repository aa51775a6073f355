#!/usr/bin/env bash
# Arena soak: thousands of games in ONE run at concurrency 2, well-behaved engines (external
# `otau` at depth=1, the arena's test engine in mode `ok`, the built-in otau, random and greedy
# players) in a round robin with every misbehaving test engine (crash-restart, crash-mid,
# stall-restart, no-answer, late, illegal, garbage, flood, ignore-quit; deaf: stops reading its
# input mid-game but plays on; deaf-restart: after the start-up check reads nothing after `ugi`
# and is sent a 70 KB option; wrapped: crash-mid behind `sh -c 'helper & exec engine'`, the
# helper holding the pipes; crash-flood: a crash loop writing 1 MiB of stderr per process), so
# each fault meets the sound engines hundreds of times. Samples the arena's memory (RSS) and open
# files every second, then prints the games played, the terminations by kind, RSS and fds
# first/max/last, the log folder's size, and checks that no engine process outlived the run.
# Exit status 1 when games are missing, processes are left, memory/fds grew or the logs outgrew
# their cap.
#
#   scripts/soak.sh [GAMES]      (default 3000)
#   STARTUP=1 scripts/soak.sh    (--startup-timeout in seconds: the cost of each stall)
#   KEEP=1 scripts/soak.sh       (keep the work directory: records, logs, samples)
# Run it niced when the machine is shared: nice -n 19 scripts/soak.sh
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
games=${1:-3000}
startup=${STARTUP:-1}
cargo build --release --quiet --bin otau --bin otau-arena
release=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
arena=$release/otau-arena
# A tag unique to this run on every engine command line: the check for left-over processes.
tag="otau-soak-$$-$RANDOM"
work=$(mktemp -d "/tmp/$tag.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; fi
# `otau` takes no extra argument: it runs through a link whose path carries the tag.
ln -s "$release/otau" "$work/otau-$tag"
cd "$work"

# Built-in players run inside the arena: a 1 MB hash keeps their tables out of its RSS.
# Sound engines are depth-limited (never timed: a loaded machine cannot make them lose on
# time); engines that stall mid-game get a short `st` so each stall costs a fraction of a second.
engines=(
  --engine name=otau cmd="$work/otau-$tag" depth=1
  --engine name=ok cmd="$arena" "args=fake-engine ok $tag" depth=1
  --engine name=builtin-otau cmd=builtin:otau option.Hash=1 depth=1
  --engine name=random cmd=builtin:random option.Hash=1 depth=1
  --engine name=greedy cmd=builtin:greedy option.Hash=1 depth=1
)
# crash-restart and stall-restart pass the start-up check before the first game (an engine that
# cannot start at all stops the run there), then fail every restart.
for mode in crash-restart crash-mid stall-restart illegal garbage ignore-quit; do
  engines+=(--engine name="$mode" cmd="$arena" "args=fake-engine $mode $tag" depth=1)
done
for mode in no-answer late flood; do
  engines+=(--engine name="$mode" cmd="$arena" "args=fake-engine $mode $tag" st=0.1 timemargin=50)
done
# Faults of issue 14: an engine that stops reading (its writes are bounded by the move's
# timeout, and at start-up by the start-up timeout), a crash hidden behind a helper that keeps
# the pipes open, a crash loop flooding stderr (capped per engine per run by --log-limit).
engines+=(--engine name=deaf cmd="$arena" "args=fake-engine deaf $tag" depth=1 timeout=0.3)
engines+=(--engine name=deaf-restart cmd="$arena" "args=fake-engine deaf-restart $tag" depth=1
  "option.Book=$(head -c 70000 /dev/zero | tr '\0' x)")
engines+=(--engine name=wrapped cmd=/bin/sh
  "args=-c '$arena fake-engine helper $tag & exec $arena fake-engine crash-mid $tag'" depth=1)
engines+=(--engine name=crash-flood cmd="$arena" "args=fake-engine crash-flood $tag" depth=1)
log_limit_mib=4

# Engines that never start or always crash are tried again every game (no forfeits): the spawn
# and crash paths are soaked, and the crash loop's stderr meets its cap.
"$arena" "${engines[@]}" --tournament roundrobin --games "$games" --concurrency 2 --seed 1 \
  --openings plies=6 --startup-timeout "$startup" --max-start-failures 1000000000 \
  --max-crashes 1000000000 --log-limit "$log_limit_mib" \
  --log-dir logs --out records.jsonl --quiet >table.txt 2>cost.txt &
pid=$!
samples=$work/samples.txt
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l || true)
  threads=$(awk '/^Threads/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] && echo "$rss $fds $threads" >>"$samples"
  sleep 1
done
status=0
wait "$pid" || status=$?
# The *-restart modes' marker files (fake_engine::first_start_marker).
rm -f "${TMPDIR:-/tmp}"/otau-fake-engine-"$pid"-*-"$tag"
# The rating table and the per-engine endings (not the head-to-head blocks of every pairing).
awk '/# PLAYER/ { p = 1 } p' table.txt
cat cost.txt
echo "arena exit status: $status"
played=$(grep -c '^{"event":"game"' records.jsonl || true)
n_engines=$(printf '%s\n' "${engines[@]}" | grep -c '^--engine$')
echo "games played: $played of $games (concurrency 2, $n_engines engines, round robin)"
echo "terminations by kind:"
jq -r 'select(.event == "game") | .termination.kind' records.jsonl | sort | uniq -c | sort -rn
echo "faults by engine (kind, engine at fault):"
jq -r 'select(.event == "game" and .termination.side != null)
       | "\(.termination.kind) \(if .termination.side == "south" then .south else .north end)"' \
  records.jsonl | sort | uniq -c | sort -k3,3 -k1,1rn
# Flat means: the last quarter of the run is no higher than the first quarter's maximum plus
# 2 MB and 1 KB a game (the compact record the statistics keep of every game), and open files no
# more than 8 above (an engine being restarted when the sample was taken).
awk -v games="$games" '{ v[NR] = $1; f[NR] = $2; t[NR] = $3 }
     END {
       n = NR; q = int(n / 4); if (q < 1) q = 1
       for (i = 1; i <= n; i++) {
         if (v[i] > mv) mv = v[i]; if (f[i] > mf) mf = f[i]; if (t[i] > mt) mt = t[i]
         if (i <= q) { if (v[i] > qv) qv = v[i]; if (f[i] > qf) qf = f[i] }
         if (i > n - q) { if (v[i] > lv) lv = v[i]; if (f[i] > lf) lf = f[i] }
       }
       printf "arena RSS KiB: first %d, max %d, last %d (first-quarter max %d, last-quarter max %d)\n", v[1], mv, v[n], qv, lv
       printf "arena open fds: first %d, max %d, last %d (first-quarter max %d, last-quarter max %d)\n", f[1], mf, f[n], qf, lf
       printf "arena threads: first %d, max %d, last %d; %d samples (one a second)\n", t[1], mt, t[n], n
       grew = (lv > qv + 2048 + games) || (lf > qf + 8)
       if (grew) { print "GROWTH: memory or open files grew over the run"; exit 1 }
     }' "$samples" || status=1
# Every engine's log stays within --log-limit (plus the per-process start lines and one note).
echo "log folder: $(du -sb logs | cut -f1) bytes in $(ls logs | wc -l) files; largest:"
ls -S -l logs | awk 'NR > 1 && NR <= 4 { print "  " $5 " " $9 }'
for f in logs/*; do
  if [ "$(stat -c %s "$f")" -gt $((log_limit_mib * 1048576 + 1048576)) ]; then
    echo "LOG OVER ITS CAP: $f"
    status=1
  fi
done
# Engines are killed with the arena's own; give the kernel a moment to reap, then look.
sleep 1
left=0
for f in /proc/[0-9]*/cmdline; do
  cmd=$({ tr '\0' ' ' <"$f"; } 2>/dev/null || true)
  if [[ "$cmd" == *"$tag"* ]]; then
    echo "LEFT OVER: ${f%/cmdline}: $cmd"
    left=$((left + 1))
  fi
done
if [ "$left" -gt 0 ]; then
  status=1
else
  echo "left-over engine processes (command line carrying $tag): 0"
fi
[ "$played" -eq "$(jq -r 'select(.event == "summary") | .scheduled' records.jsonl)" ] || status=1
[ -n "${KEEP:-}" ] && echo "kept: $work"
exit "$status"
