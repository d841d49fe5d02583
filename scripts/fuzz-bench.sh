#!/usr/bin/env bash
# The long fuzz run (docs/fuzzing.md): every fuzz target once, one after
# the other, for RUNS inputs each (default 10,000,000), on one core. Prints
# per target the inputs run, the seconds, inputs per second and crashes,
# and writes the table to target/fuzz/bench.md and target/fuzz/bench.csv.
#
#   scripts/fuzz-bench.sh [RUNS] [TARGET…]
#
# Exits non-zero when a target crashed (the input is in
# target/fuzz/artifacts/TARGET/; make it a test, fix, run again).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000000}
shift || true
scripts/fuzz.sh build
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(scripts/fuzz.sh list)
out=target/fuzz
mkdir -p "$out"
csv=$out/bench.csv
md=$out/bench.md
echo "target,inputs,seconds,inputs_per_second,crashes" >"$csv"
{
  echo "| target | inputs | seconds | inputs/s | crashes |"
  echo "|---|---:|---:|---:|---:|"
} >"$md"
failed=0
for t in "${targets[@]}"; do
  log=$out/bench-$t.log
  before=$(find "$out/artifacts/$t" -type f 2>/dev/null | wc -l)
  t0=$(date +%s.%N)
  set +e
  scripts/fuzz.sh run "$t" "$runs" >"$log" 2>&1
  rc=$?
  set -e
  t1=$(date +%s.%N)
  inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  inputs=${inputs:-0}
  crashes=$(($(find "$out/artifacts/$t" -type f 2>/dev/null | wc -l) - before))
  if [ "$rc" != 0 ] && [ "$crashes" = 0 ]; then crashes=1; fi
  secs=$(echo "$t1 $t0" | awk '{printf "%.1f", $1 - $2}')
  rate=$(echo "$inputs $secs" | awk '{printf "%.0f", ($2 > 0 ? $1 / $2 : 0)}')
  echo "$t,$inputs,$secs,$rate,$crashes" >>"$csv"
  echo "| $t | $inputs | $secs | $rate | $crashes |" >>"$md"
  printf '%-18s %10s inputs %8s s %8s inputs/s %s crashes\n' "$t" "$inputs" "$secs" "$rate" "$crashes"
  if [ "$crashes" != 0 ]; then
    failed=1
    grep -E "panicked|ERROR|Test unit written|deadly signal" "$log" | head -n 5 >&2 || true
  fi
done
echo "table: $md, $csv"
exit "$failed"
