#!/usr/bin/env bash
# kill -9 in the middle of a run at concurrency 2, then --resume: plays a seeded match of real
# engines (external `otau` at fixed depths and nodes, so every game is reproducible), SIGKILLs
# the arena once a share of the games is recorded, checks that no engine process outlived it,
# resumes (and kills and resumes again), and compares with an uninterrupted run of the same
# seed: the same set of games byte for byte (none lost, none twice), the same statistics output
# (head-to-head Elo and pentanomial lines, rating table) and the same summary record. Exit
# status 1 on any difference.
#
#   scripts/kill-resume.sh [GAMES [KILL_POINT...]]
#       (default 1000 games, killed once 30% are recorded, resumed, killed again once 60% are,
#       and resumed to the end)
#   KEEP=1 scripts/kill-resume.sh    (keep the work directory)
# Run it niced when the machine is shared: nice -n 19 scripts/kill-resume.sh
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
cd "$(dirname "$0")/.."
games=${1:-1000}
shift || true
kill_points=("$@")
[ ${#kill_points[@]} -gt 0 ] || kill_points=($((games * 3 / 10)) $((games * 6 / 10)))
cargo build --release --quiet --bin otau --bin otau-arena
release=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
arena=$release/otau-arena
# A tag unique to this run on every engine command line: the check for left-over processes.
tag="otau-killresume-$$-$RANDOM"
work=$(mktemp -d "/tmp/$tag.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; fi
# `otau` takes no extra argument: it runs through a link whose path carries the tag.
ln -s "$release/otau" "$work/otau-$tag"
cd "$work"

run=(--engine name=deep cmd="$work/otau-$tag" depth=4
     --engine name=shallow cmd="$work/otau-$tag" depth=3
     --engine name=nodes cmd="$work/otau-$tag" nodes=3000
     --games "$games" --seed 20261129 --openings plies=6 --concurrency 2)

tagged() {
  local f cmd n=0
  for f in /proc/[0-9]*/cmdline; do
    cmd=$({ tr '\0' ' ' <"$f"; } 2>/dev/null || true)
    if [[ "$cmd" == *"$tag"* ]]; then
      [ "${1:-}" = list ] && echo "  ${f%/cmdline}: $cmd"
      n=$((n + 1))
    fi
  done
  echo "$n"
}
game_lines() {
  local n
  n=$(grep -c '^{"event":"game"' "$1" 2>/dev/null || true)
  echo "${n:-0}"
}
status=0

echo "== uninterrupted run: $games games, concurrency 2"
start=$(date +%s)
"$arena" "${run[@]}" --out full.jsonl --pgn full.pgn --quiet >full.txt
echo "   $(game_lines full.jsonl) games in $(($(date +%s) - start)) s"

# Killed -9 at each kill point: first the fresh run, then each resumption; the last resumption
# runs to the end.
first=yes
for point in "${kill_points[@]}" end; do
  if [ "$first" = yes ]; then
    echo "== the same run, killed -9 once $point games are recorded"
    "$arena" "${run[@]}" --out part.jsonl --pgn part.pgn --quiet >/dev/null &
    first=no
  elif [ "$point" = end ]; then
    echo "== --resume to the end"
    start=$(date +%s)
    "$arena" --resume part.jsonl --concurrency 2 --quiet >resumed.txt
    echo "   resumed to $(game_lines part.jsonl) games in $(($(date +%s) - start)) s"
    break
  else
    echo "== --resume, killed -9 again once $point games are recorded"
    "$arena" --resume part.jsonl --concurrency 2 --quiet >/dev/null &
  fi
  pid=$!
  while [ "$(game_lines part.jsonl)" -lt "$point" ] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.05
  done
  # The arena's children: its engines and its guardian (which ends what they started).
  engines_before=$( (ps --ppid "$pid" -o comm= || true) | grep -vc '^otau-guardian$' || true)
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  recorded=$(game_lines part.jsonl)
  torn=no
  [ -s part.jsonl ] && [ "$(tail -c 1 part.jsonl | od -An -c | tr -d ' ')" != '\n' ] && torn=yes
  echo "   killed with $recorded games recorded (torn last line: $torn); $engines_before engine processes (and the guardian) were running"
  if [ "$recorded" -ge "$games" ]; then
    echo "   the run ended before the kill: use more games"; status=1
  fi
  # The engines get SIGKILL from the kernel when the arena dies (parent-death signal).
  for _ in $(seq 50); do
    [ "$(tagged)" -eq 0 ] && break
    sleep 0.1
  done
  left=$(tagged)
  echo "   engine processes left after the kill: $left"
  if [ "$left" -ne 0 ]; then tagged list; status=1; fi
done

echo "== comparison with the uninterrupted run"
jq -c 'select(.event == "game")' full.jsonl | jq -s -c 'sort_by(.index)[]' >full.games
jq -c 'select(.event == "game")' part.jsonl | jq -s -c 'sort_by(.index)[]' >part.games
dups=$(jq -r 'select(.event == "game") | .index' part.jsonl | sort -n | uniq -d | wc -l)
echo "   games: uninterrupted $(wc -l <full.games), resumed $(wc -l <part.games), indices recorded twice: $dups"
[ "$dups" -eq 0 ] || status=1
if cmp -s full.games part.games; then
  echo "   every game identical (moves, scores, results, terminations)"
else
  echo "   GAMES DIFFER:"; diff full.games part.games | head -5; status=1
fi
if cmp -s <(grep '^{"event":"summary"' full.jsonl) <(grep '^{"event":"summary"' part.jsonl); then
  echo "   summary record identical"
else
  echo "   SUMMARY RECORDS DIFFER"; status=1
fi
# Everything printed is derived from the games; think times are not printed at fixed depth.
if cmp -s full.txt resumed.txt; then
  echo "   statistics output identical ($(wc -l <full.txt) lines)"
else
  echo "   STATISTICS OUTPUT DIFFERS:"; diff full.txt resumed.txt | head -20; status=1
fi
# --resume alone goes on writing the PGN the run recorded; games are in game order.
if cmp -s full.pgn part.pgn; then
  echo "   PGN identical byte for byte ($(grep -c '^\[Event ' part.pgn) games)"
else
  echo "   PGN DIFFERS"; status=1
fi
grep -E '^Results of|^Elo:|^Ptnml' resumed.txt | sed 's/^/   /'
[ -n "${KEEP:-}" ] && echo "kept: $work"
[ "$status" -eq 0 ] && echo "== OK" || echo "== FAILED"
exit "$status"
