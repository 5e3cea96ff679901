#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, in build-fuzz/) and runs them with the
# committed corpus and dictionaries (docs/reliability.md).
#   scripts/fuzz.sh [TARGET|all] [SECONDS]   each target SECONDS (default 60) on a copy of its corpus
#   scripts/fuzz.sh --merge [TARGET|all] [SECONDS]
#                                            the same, then minimises fixtures' seeds, the committed
#                                            corpus and what the run found into fuzz/corpus/TARGET
#                                            (SECONDS 0: only that minimisation)
#   scripts/fuzz.sh --smoke                  CI: every target for VRECON_FUZZ_SMOKE_SECONDS (10) each
#   scripts/fuzz.sh --list                   the targets
# Prints the executions of each target and appends them to build-fuzz/executions.log. Exits 1
# when a target crashes or breaks a property; the input is kept in build-fuzz/artifacts/TARGET/.
# Runs one target at a time (--smoke: one per core), under `nice`: fuzzing shares the machine.
# Environment: VRECON_FUZZ_BUILD_DIR (build-fuzz), VRECON_FUZZ_BUILD_JOBS (nproc),
# VRECON_FUZZ_SMOKE_SECONDS (10), VRECON_FUZZ_TIMEOUT (10: seconds one input may take before
# libFuzzer calls it a hang; a run at nice 19 beside builds that hold both cores gets a few
# percent of a core, and an input of 150 ms then can take longer than 10 s of wall clock).
set -euo pipefail
cd "$(dirname "$0")/.."

# Listed here as in fuzz/CMakeLists.txt.
targets=(perfmon_csv esxtop_csv text_decode counter_path powercli_csv sar_text proc_stat proc_pid_stat
         vsphere_soap fleet_toml timestamps pdh_roundtrip xperf_dumper wpa_precise wpa_sampled format_guess)

mode=run
case "${1:-}" in
  --merge) mode=merge; shift ;;
  --smoke) mode=smoke; shift ;;
  --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
  -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
esac
which=${1:-all}
seconds=${2:-60}
if [ "$mode" = smoke ]; then
  which=all
  seconds=${VRECON_FUZZ_SMOKE_SECONDS:-10}
fi
timeout=${VRECON_FUZZ_TIMEOUT:-10}
case $timeout in ''|*[!0-9]*|0) echo "fuzz.sh: VRECON_FUZZ_TIMEOUT must be a whole number of seconds, not '$timeout'" >&2; exit 2 ;; esac
if [ "$which" = all ]; then
  run=("${targets[@]}")
else
  printf '%s\n' "${targets[@]}" | grep -qx -- "$which" || { echo "fuzz.sh: no target '$which' (see --list)" >&2; exit 2; }
  run=("$which")
fi
case $seconds in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;; esac
# --merge with 0 seconds only re-minimises the corpus; libFuzzer itself would take 0 as "forever".
if [ "$seconds" -eq 0 ] && [ "$mode" != merge ]; then echo "fuzz.sh: SECONDS must be at least 1" >&2; exit 2; fi

scripts/install-deps.sh --fuzz
build=${VRECON_FUZZ_BUILD_DIR:-build-fuzz}
# Unity builds of the libraries, as scripts/test.sh's (docs/development.md "Build time").
CC=clang CXX=clang++ cmake -S . -B "$build" -DVRECON_FUZZ=ON -DVRECON_BUILD_TESTS=OFF -DVRECON_BUILD_BENCH=OFF -DVRECON_WERROR=ON \
  -DCMAKE_UNITY_BUILD="${VRECON_UNITY_BUILD:-ON}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" >/dev/null
jobs=${VRECON_FUZZ_BUILD_JOBS:-$(nproc)}
nice -n 19 cmake --build "$build" --target vrecon_fuzzers -j"$jobs"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$mode" = merge ]; then
  fuzz/seed_corpus.sh "$tmp/seeds"
fi

# The longest input kept: small inputs run fast and keep the committed corpus small; SOAP
# answers need room for a real vCenter's ServiceContent.
max_len() {
  case $1 in
    vsphere_soap) echo 6144 ;;
    perfmon_csv|esxtop_csv|powercli_csv|sar_text|fleet_toml|xperf_dumper|wpa_precise|wpa_sampled|format_guess) echo 2048 ;;
    text_decode|counter_path|proc_stat) echo 1024 ;;
    *) echo 512 ;;
  esac
}

# One target: its run, its report on a failure, its line in executions.log and in
# $tmp/TARGET.summary (read back below, since --smoke runs targets in background jobs).
fuzz_one() {
  local t=$1
  local bin=$build/fuzz/${t}_fuzzer corpus=$tmp/corpus-$t art=$build/artifacts/$t log=$tmp/$t.log
  mkdir -p "$corpus" "$art" "fuzz/corpus/$t"
  cp -r "fuzz/corpus/$t/." "$corpus/"
  echo "== $t: ${seconds}s on $(ls "$corpus" | wc -l) corpus inputs"
  local extra=()
  [ "$mode" = merge ] && [ -d "$tmp/seeds/$t" ] && extra=("$tmp/seeds/$t")  # read, never written
  local rc=0
  if [ "$seconds" -gt 0 ]; then
    nice -n 19 "$bin" "$corpus" "${extra[@]}" -dict="fuzz/dict/$t.dict" -max_total_time="$seconds" \
      -max_len="$(max_len "$t")" -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/" \
      >"$log" 2>&1 || rc=$?
  else
    : >"$log"
  fi
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  execs=${execs:-0}
  local result=ok
  if [ "$rc" -ne 0 ]; then
    result=FAILED
    # The report: sanitizer or property message, stack, and the input libFuzzer saved.
    grep -E "ERROR|runtime error|property violated|SUMMARY|Test unit written|^ +#[0-9]+ " "$log" | head -40 >&2 ||
      tail -n 20 "$log" >&2
  fi
  [ "$seconds" -gt 0 ] &&
    printf '%s %s %s %ss %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$t" "$execs" "$seconds" "$result" >>"$build/executions.log"
  printf '%-14s %12s executions  %s\n' "$t" "$execs" "$result" >"$tmp/$t.summary"
  if [ "$mode" = merge ] && [ "$rc" -eq 0 ]; then
    # One input per covered edge (-use_counters=0: not one per hit count) keeps the committed
    # corpus small; a run regrows the rest in seconds.
    local fresh=$tmp/merged-$t
    mkdir -p "$fresh"
    nice -n 19 "$bin" -merge=1 -use_counters=0 -max_len="$(max_len "$t")" -timeout="$timeout" -rss_limit_mb=2048 "$fresh" \
      "fuzz/corpus/$t" "$corpus" "$tmp/seeds/$t" >"$tmp/$t.merge.log" 2>&1
    rm -rf "fuzz/corpus/$t"
    mv "$fresh" "fuzz/corpus/$t"
    echo "   corpus: $(ls "fuzz/corpus/$t" | wc -l) inputs, $(du -sk --apparent-size "fuzz/corpus/$t" | cut -f1) KB"
  fi
}

# --smoke is CI's, on a machine of its own: one target per core at a time. Otherwise one at a
# time, since fuzzing shares the machine.
parallel=1
[ "$mode" = smoke ] && parallel=$(nproc)
for t in "${run[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
status=0
summary=()
for t in "${run[@]}"; do
  line=$(cat "$tmp/$t.summary" 2>/dev/null || printf '%-14s %12s executions  FAILED' "$t" "?")
  summary+=("$line")
  case $line in *FAILED) status=1 ;; esac
done
echo "== executions (this run; every run is in $build/executions.log)"
printf '%s\n' "${summary[@]}"
exit $status
