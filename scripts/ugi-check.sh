#!/usr/bin/env bash
# UGI compliance check of any engine (see protocol/ugi.md, "Checking an engine").
#   scripts/ugi-check.sh [--game <id>] [--timeout <s>] <engine program> [engine args...]
# Exits 0 when every item passes, 1 otherwise.
set -euo pipefail
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
opts=()
check_timeout=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --game) opts=("${opts[@]}" --game "$2"); shift 2 ;;
        --timeout) check_timeout=(--timeout "$2"); shift 2 ;;
        *) break ;;
    esac
done
if [[ $# -lt 1 ]]; then
    echo "usage: $0 [--game <id>] [--timeout <s>] <engine program> [engine args...]" >&2
    exit 2
fi
cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin otau
exec "${CARGO_TARGET_DIR:-$root/target}/release/otau" "${opts[@]}" check "${check_timeout[@]}" -- "$@"
