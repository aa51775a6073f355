#!/usr/bin/env bash
# Scale of `otau-arena ratings`: fields of PLAYERS players in GAMES games drawn from known ratings
# (python3), timed with their peak memory, and how far the fitted ratings are from the truth.
# Usage: scripts/ratings-scale.sh [-h] [PLAYERS GAMES]...   (default: 1000 5000, 10000 50000)
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,4p' "$0" | sed 's/^# //'
  exit 0
fi
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin otau-arena
arena=$PWD/${CARGO_TARGET_DIR:-target}/release/otau-arena
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(1000 5000 10000 50000)
while [[ ${#sizes[@]} -ge 2 ]]; do
  players=${sizes[0]} games=${sizes[1]}
  sizes=("${sizes[@]:2}")
  pgn=$work/field-$players-$games.pgn
  # A connected field: each player first meets a random earlier one, the other games pair players
  # at random. Results from the model the fit assumes (advantage 30, draw parameter 100).
  python3 - "$players" "$games" "$pgn" "$work/truth-$players" <<'PY'
import math, random, sys
players, games, out, truth_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = random.Random(27)
truth = [rng.gauss(0, 200) for _ in range(players)]
F = lambda x: 1 / (1 + 10 ** (-x / 400))
pairs = [(i, rng.randrange(i)) for i in range(1, players)]
pairs += [tuple(rng.sample(range(players), 2)) for _ in range(games - len(pairs))]
with open(out, "w") as f:
    for s, n in pairs:
        if rng.random() < 0.5:
            s, n = n, s
        x = truth[s] - truth[n] + 30
        u = rng.random()
        result = "1-0" if u < F(x - 100) else "0-1" if u < F(x - 100) + F(-x - 100) else "1/2-1/2"
        f.write(f'[White "p{s}"]\n[Black "p{n}"]\n[Result "{result}"]\n\n{result}\n\n')
with open(truth_file, "w") as f:
    mean = sum(truth) / players
    for i, r in enumerate(truth):
        f.write(f"p{i} {r - mean}\n")
PY
  echo "== $players players, $games games ($(du -h "$pgn" | cut -f1) of PGN)"
  /usr/bin/time -f "time %e s (CPU %U s user, %S s system), peak RSS %M kB" "$arena" ratings "$pgn" \
    >"$work/table" 2>"$work/time" || { cat "$work/time"; exit 1; }
  grep "fit step\|errors:" "$work/time" | tail -2 || true
  grep "time .* peak RSS" "$work/time"
  # The fitted ratings are reported scaled to the logistic slope: compare their order with the truth.
  python3 - "$work/table" "$work/truth-$players" <<'PY'
import sys
table, truth = sys.argv[1], sys.argv[2]
true = dict(l.split() for l in open(truth))
fitted = {}
for line in open(table):
    parts = line.split()
    if len(parts) > 3 and parts[0].isdigit() and parts[2] == ":":
        fitted[parts[1]] = float(parts[3])
names = sorted(fitted)
xs = [float(true[n]) for n in names]
ys = [fitted[n] for n in names]
mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
vx = sum((x - mx) ** 2 for x in xs)
vy = sum((y - my) ** 2 for y in ys)
print(f"{len(fitted)} players rated; correlation with the true ratings {cov / (vx * vy) ** 0.5:.3f}")
PY
done
