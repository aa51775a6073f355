#!/usr/bin/env bash
# Long fuzzing runs (libFuzzer through cargo-fuzz) of otau's input parsers.
#
#   scripts/fuzz.sh [--time SECONDS] [--jobs N] [TARGET...]
#
# Targets (default: all), each in tests/fuzz/fuzz_targets/:
#   position      position strings: AnyGame::from_position, round trip, rules on the result
#   move_token    move tokens of every game in positions from random playouts
#   ugi           byte streams into the engine's command loop (otau::ugi::serve)
#   engine_output byte streams from an engine, as the arena reads them
#
# --time is per target (default 60 s; FUZZ_TIME also sets it). --jobs runs that many targets at
# once (default 1). Corpora, logs and crash inputs go to target/fuzz-work/<target>/ (FUZZ_WORK
# moves it); a run resumes from its corpus. The script ends non-zero when any target found a
# failing input: add it to tests/fuzz/regressions/ (named <target>-<what>) with a fix.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). It uses a nightly toolchain when rustup has one,
# otherwise the stable one with RUSTC_BOOTSTRAP=1 (the instrumentation flags are nightly-only).
# Builds use no sanitizer (the code is safe Rust) but keep debug assertions and overflow checks.
set -euo pipefail
cd "$(dirname "$0")/.."

time_per_target=${FUZZ_TIME:-60}
jobs=1
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --time) time_per_target=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
all_targets=(position move_token ugi engine_output)
if [ ${#targets[@]} -eq 0 ]; then
    for t in "${all_targets[@]}"; do
        [ -f "tests/fuzz/fuzz_targets/$t.rs" ] && targets+=("$t")
    done
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2
    exit 2
fi
toolchain=()
if rustup run nightly rustc --version >/dev/null 2>&1; then
    toolchain=(+nightly)
else
    export RUSTC_BOOTSTRAP=1
fi

work=${FUZZ_WORK:-target/fuzz-work}
mkdir -p "$work"
work=$(cd "$work" && pwd)
root=$(pwd)

echo "== building fuzz targets (${toolchain[*]:-stable with RUSTC_BOOTSTRAP})"
nice cargo "${toolchain[@]}" fuzz build --fuzz-dir tests/fuzz --target-dir target/fuzz \
    --sanitizer none --debug-assertions >/dev/null 2>"$work/build.log" \
    || { cat "$work/build.log" >&2; exit 1; }
bin=target/fuzz/x86_64-unknown-linux-gnu/release

# Starting corpora from random playouts (once; the fuzzer's own corpus grows from there).
if [ ! -d "$work/position/corpus" ]; then
    nice cargo run --quiet --release --manifest-path tests/fuzz/Cargo.toml \
        --target-dir target/fuzz-plain --example seed_corpus -- "$work/seeds"
    for t in "${all_targets[@]}"; do
        mkdir -p "$work/$t/corpus"
        [ -d "$work/seeds/$t" ] && cp -n "$work/seeds/$t"/* "$work/$t/corpus/" 2>/dev/null || true
    done
fi

run_target() {
    local t=$1
    local dir="$work/$t"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    # The known findings first: they must pass before new ground is searched.
    local regressions=()
    for f in tests/fuzz/regressions/"$t"-*; do [ -e "$f" ] && regressions+=("$f"); done
    if [ ${#regressions[@]} -gt 0 ]; then
        "$bin/$t" -runs=1 "${regressions[@]}" >"$dir/regressions.log" 2>&1 \
            || { echo "$t: a saved regression input fails again (see $dir/regressions.log)"; return 1; }
    fi
    # -timeout: an input running 10 s is a hang; -rss_limit_mb: memory past 2 GB is a finding;
    # -max_len: inputs up to 64 KiB (the parsers' own limits are tested by unit tests).
    (cd "$dir" && nice "$root/$bin/$t" corpus -max_total_time="$time_per_target" \
        -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix=artifacts/ >"run.log" 2>&1) && status=0 || status=$?
    local execs
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$dir/run.log" | grep -o '[0-9]*$' || echo 0)
    local findings
    findings=$(find "$dir/artifacts" -type f | wc -l)
    echo "$t: $execs executions in ${time_per_target}s, corpus $(ls "$dir/corpus" | wc -l) inputs, $findings findings (exit $status)"
    [ "$findings" -eq 0 ] && [ "$status" -eq 0 ]
}

failed=0
pids=()
for t in "${targets[@]}"; do
    run_target "$t" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$jobs" ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
if [ $failed -ne 0 ]; then
    echo "fuzzing found failures: inputs in $work/<target>/artifacts/" >&2
    exit 1
fi
