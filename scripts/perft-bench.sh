#!/usr/bin/env bash
# Toguz Kumalak perft speed against a reference, measured in one run: otau's bulk perft from the
# start and the reference's at depths 8 and 9, interleaved ROUNDS times. Prints every run's CPU
# and wall time, the leaf counts (they must be equal: the script fails otherwise) and, per depth,
# the ratio reference / otau of the total CPU time (above 1: otau is faster).
#
#   scripts/perft-bench.sh [ROUNDS]          (default 3)
#   NINEQ_DIR=DIR   a work tree of github.com/nurkal022/9Qumalaqv2 (default ../9Qumalaqv2)
#   NINEQ_GIT=DIR   or its git directory (a bare or mirror clone): HEAD is exported to a temp dir
#   BASE_REV=REV    without 9Qumalaqv2: the reference is otau built at this git revision
#                   (default main; a release build, several minutes)
#   BASE_OTAU=FILE  or an otau binary built before
#
# The 9Qumalaqv2 reference is its own rules code (engine/src/board.rs, compiled in place, not
# copied) under its release profile (opt-level 3, LTO, one codegen unit) in a small program that
# counts the last ply's moves instead of playing them, as otau does; 9Qumalaqv2's own `perft`
# command plays every leaf and stops at depth 8.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
rounds=${1:-3}
if ! [[ "$rounds" =~ ^[1-9][0-9]?$ ]]; then
  echo "perft-bench: ROUNDS must be a number 1..99, got '$rounds'" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/base" 2>/dev/null || true; rm -rf "$work"' EXIT

cargo build --release --quiet --bin otau
otau=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/otau

nineq=${NINEQ_DIR:-}
nineq_rev=
if [ -z "$nineq" ] && [ -n "${NINEQ_GIT:-}" ]; then
  mkdir "$work/nineq"
  git --git-dir="$NINEQ_GIT" archive HEAD | tar -x -C "$work/nineq"
  nineq=$work/nineq
  nineq_rev=$(git --git-dir="$NINEQ_GIT" rev-parse --short HEAD)
fi
if [ -z "$nineq" ] && [ -d ../9Qumalaqv2 ]; then
  nineq=$(cd ../9Qumalaqv2 && pwd)
fi

if [ -n "$nineq" ]; then
  board=$nineq/engine/src/board.rs
  if [ ! -f "$board" ]; then
    echo "perft-bench: $board not found (NINEQ_DIR must be a 9Qumalaqv2 work tree)" >&2
    exit 2
  fi
  if [ -z "$nineq_rev" ]; then
    nineq_rev=$(git -C "$nineq" rev-parse --short HEAD 2>/dev/null || echo "$nineq")
  fi
  ref_name="9Qumalaqv2 ($nineq_rev)"
  mkdir -p "$work/nineq-perft/src"
  cat >"$work/nineq-perft/Cargo.toml" <<'EOF'
[package]
name = "nineq-perft"
version = "0.0.0"
edition = "2021"

[workspace]

[profile.release]
opt-level = 3
lto = true
codegen-units = 1
EOF
  cat >"$work/nineq-perft/src/main.rs" <<EOF
#[allow(dead_code)]
#[path = "$board"]
mod board;

use board::{Board, NUM_PITS};

/// Bulk perft over 9Qumalaqv2's rules: the moves of the last ply are counted, not played.
fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 || board.is_terminal() {
        return 1;
    }
    let mut moves = [0usize; NUM_PITS];
    let count = board.valid_moves_array(&mut moves);
    if depth == 1 {
        return count as u64;
    }
    let mut nodes = 0;
    for &mv in &moves[..count] {
        let mut child = *board;
        child.make_move(mv);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok()).expect("a depth");
    println!("nodes {}", perft(&Board::new(), depth));
}
EOF
  # The driver's own target folder (never the user's CARGO_TARGET_DIR).
  nineq_out=$work/nineq-perft/build
  CARGO_TARGET_DIR=$nineq_out cargo build --release --quiet \
    --manifest-path "$work/nineq-perft/Cargo.toml"
  ref=("$nineq_out/release/nineq-perft")
else
  if [ -n "${BASE_OTAU:-}" ]; then
    base=$BASE_OTAU
    ref_name="otau $base"
  else
    rev=${BASE_REV:-main}
    git worktree add --quiet --detach "$work/base" "$rev"
    echo "building otau at $rev (no 9Qumalaqv2: set NINEQ_DIR or NINEQ_GIT to compare with it)" >&2
    (cd "$work/base" && CARGO_TARGET_DIR=$work/base-build cargo build --release --quiet --bin otau)
    base=$work/base-build/release/otau
    ref_name="otau $(git rev-parse --short "$rev")"
  fi
  ref=("$base" perft --depth)
fi

# Runs a command with the depth appended; prints "<user+sys CPU s> <wall s> <leaf count>".
measure() {
  local out=$work/out.txt timing=$work/time.txt
  local TIMEFORMAT='%U %S %R'
  { time "$@" >"$out" 2>/dev/null; } 2>"$timing"
  local nodes
  nodes=$(awk '/^nodes / { print $2 }' "$out")
  awk -v n="$nodes" '{ printf "%.3f %.3f %s\n", $1 + $2, $3, n }' "$timing"
}

echo "otau:      $otau"
echo "reference: $ref_name"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
status=0
for depth in 8 9; do
  otau_cpu=0
  ref_cpu=0
  otau_wall=0
  ref_wall=0
  for round in $(seq "$rounds"); do
    read -r oc ow on < <(measure "$otau" perft --depth "$depth")
    read -r rc rw rn < <(measure "${ref[@]}" "$depth")
    printf 'depth %s round %s: otau %s s CPU (%s s wall), reference %s s CPU (%s s wall), leaves %s / %s\n' \
      "$depth" "$round" "$oc" "$ow" "$rc" "$rw" "$on" "$rn"
    if [ -z "$on" ] || [ "$on" != "$rn" ]; then
      echo "perft-bench: depth $depth: the leaf counts differ (otau '$on', reference '$rn')" >&2
      status=1
    fi
    otau_cpu=$(awk -v a="$otau_cpu" -v b="$oc" 'BEGIN { print a + b }')
    ref_cpu=$(awk -v a="$ref_cpu" -v b="$rc" 'BEGIN { print a + b }')
    otau_wall=$(awk -v a="$otau_wall" -v b="$ow" 'BEGIN { print a + b }')
    ref_wall=$(awk -v a="$ref_wall" -v b="$rw" 'BEGIN { print a + b }')
  done
  awk -v d="$depth" -v oc="$otau_cpu" -v rc="$ref_cpu" -v ow="$otau_wall" -v rw="$ref_wall" \
    'BEGIN { printf "depth %s: otau %.2f s CPU, reference %.2f s CPU: ratio %.2f (wall %.2f)\n",
             d, oc, rc, rc / oc, rw / ow }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
