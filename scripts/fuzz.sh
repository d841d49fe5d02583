#!/usr/bin/env bash
# The fuzz targets of fuzz/ (docs/fuzzing.md) on the stable toolchain:
# libFuzzer through libfuzzer-sys, built with the coverage flags cargo-fuzz
# uses (no sanitizer: the code under test is safe Rust).
#
#   scripts/fuzz.sh list                   the targets
#   scripts/fuzz.sh build                  build them all (target/fuzz)
#   scripts/fuzz.sh run TARGET RUNS [ARGS] TARGET for RUNS inputs from its seed
#                                          corpus (extra libFuzzer ARGS after)
#   scripts/fuzz.sh smoke [SECONDS]        every target for SECONDS (default 5):
#                                          the short run of scripts/test.sh,
#                                          built unoptimised (profile `smoke`
#                                          of fuzz/Cargo.toml, target/fuzz/
#                                          HOST/smoke): a quicker build, fewer
#                                          inputs a second
#
# Seeds come from the shared example records (SEQUENCE_SHARED, default
# ../shared beside the repository); what a run finds goes to
# target/fuzz/corpus/TARGET, a crash to target/fuzz/artifacts/TARGET. A run
# exits non-zero on a crash (a panic, an abort, a timeout or running out
# of memory) and prints the input's file.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
shared=${SEQUENCE_SHARED:-$repo/../shared}
host=$(rustc -vV | sed -n 's/^host: //p')
out=$repo/target/fuzz
# the profile of the build (`release`; `smoke` for the short run)
profile=release
bin() { echo "$out/$host/$profile"; }

targets() { sed -n 's/^name = "\([a-z_]*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^sequence-fuzz$'; }

build() {
  # SEQUENCE_FUZZ_PREBUILT=1: use the targets built before (no cargo run)
  [ "${SEQUENCE_FUZZ_PREBUILT:-}" = 1 ] && return 0
  # --target keeps the flags off build scripts and proc macros, as cargo-fuzz does
  RUSTFLAGS="--cfg fuzzing -Ctarget-cpu=x86-64-v2 -Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares" \
    cargo build --quiet --profile "$profile" --manifest-path fuzz/Cargo.toml --target "$host" \
    --target-dir "$out" --bins
}

seeds() {
  if [ ! -d "$shared/examples" ]; then
    echo "error: the fuzz seeds come from $shared/examples (set SEQUENCE_SHARED)" >&2
    exit 1
  fi
  rm -rf "$out/seeds"
  python3 scripts/fuzz_seeds.py "$shared/examples" "$out/seeds" >/dev/null
}

# run TARGET [libFuzzer args…]: the corpus of earlier runs, then the seeds
run() {
  local t=$1
  shift
  [ -x "$(bin)/$t" ] || { echo "error: no fuzz target $t (scripts/fuzz.sh list)" >&2; exit 2; }
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
  "$(bin)/$t" -artifact_prefix="$out/artifacts/$t/" -dict=fuzz/json.dict -max_len=8192 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$@" "$out/corpus/$t" "$out/seeds/$t"
}

case ${1:-} in
  list) targets ;;
  build) build ;;
  run)
    [ $# -ge 3 ] || { echo "usage: scripts/fuzz.sh run TARGET RUNS [libFuzzer args]" >&2; exit 2; }
    t=$2 runs=$3
    shift 3
    build
    seeds
    run "$t" -runs="$runs" "$@"
    ;;
  smoke)
    secs=${2:-5}
    profile=smoke
    build
    seeds
    for t in $(targets); do
      log=$out/smoke-$t.log
      if ! run "$t" -max_total_time="$secs" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "error: fuzz target $t crashed (input in $out/artifacts/$t/)" >&2
        exit 1
      fi
      echo "fuzz $t: $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") inputs in ${secs}s, no crash"
    done
    ;;
  *)
    sed -n '2,22s/^# \{0,1\}//p' "$0" >&2
    exit 2
    ;;
esac
