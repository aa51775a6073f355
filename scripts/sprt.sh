#!/usr/bin/env bash
# SPRT between two git revisions of otau: builds each in a temporary worktree and runs
# otau-arena with --sprt until H0 or H1 is accepted.
# Usage: scripts/sprt.sh [-h] OLD-REV NEW-REV [extra otau-arena options...]
# Environment: TC (default 10+0.1), GAMES (default 20000), ELO0 (0), ELO1 (5), GAME (toguz-kumalak),
# CONCURRENCY (2), OUT (sprt-OLD-NEW.jsonl).
set -euo pipefail
if [[ $# -lt 2 || "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
  [[ $# -lt 2 && "${1:-}" != "-h" && "${1:-}" != "--help" ]] && exit 2
  exit 0
fi
old="$1"; new="$2"; shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
cleanup() {
  git -C "$root" worktree remove --force "$work/old" >/dev/null 2>&1 || true
  git -C "$root" worktree remove --force "$work/new" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
for side in old new; do
  rev="$old"; [[ $side == new ]] && rev="$new"
  git -C "$root" worktree add --detach "$work/$side" "$rev" >/dev/null
  cargo build --release --quiet --manifest-path "$work/$side/Cargo.toml" --target-dir "$work/target-$side"
  cp "$work/target-$side/release/otau" "$work/otau-$side"
done
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
out="${OUT:-sprt-${old//\//_}-${new//\//_}.jsonl}"
"${CARGO_TARGET_DIR:-$root/target}/release/otau-arena" --game "${GAME:-toguz-kumalak}" \
  --engine name=new cmd="$work/otau-new" --engine name=old cmd="$work/otau-old" \
  --each tc="${TC:-10+0.1}" --games "${GAMES:-20000}" --concurrency "${CONCURRENCY:-2}" \
  --openings plies=6 --sprt elo0="${ELO0:-0}" elo1="${ELO1:-5}" alpha=0.05 beta=0.05 \
  --out "$out" "$@"
