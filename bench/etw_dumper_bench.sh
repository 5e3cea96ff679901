#!/usr/bin/env bash
# ETW dumper ingest benchmark (issue 18, "Performance"): a synthetic `xperf -a dumper` text of
# ~2 million events (8 CPUs, 60 s, 200 processes; bench/gen_xperf_dumper.py) and one of half as
# many, each ingested into a fresh SQLite store by `vrecon ingest` pinned to one core, under
# /usr/bin/time (wall, CPU, peak RSS). Baseline in the same run: `wc -l` of the same file on the
# same core (reading and splitting the lines, nothing else). Peak RSS of the two sizes shows
# whether memory grows with the file. Not a test.
#
#   bash bench/etw_dumper_bench.sh [BUILD_DIR]     (default build/; CORE=0, EVENTS=2000000)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
core=${CORE:-0}
events=${EVENTS:-2000000}
cli=$build/src/cli/vrecon
[ -x "$cli" ] || cmake --build "$build" --target vrecon -j"$(nproc)" >/dev/null
data=$build/bench-data
mkdir -p "$data"
half=$((events / 2))
for n in "$half" "$events"; do
  f=$data/dumper-$n.txt
  # Half the events over half the time: the same rate, a file half as long.
  [ -f "$f" ] || python3 "$src/bench/gen_xperf_dumper.py" "$f" $((n * 100 / 109)) 8 $((60 * n / events)) 200
done
printf '%-10s %12s %10s %10s %10s %12s\n' events bytes "wc -l s" "ingest s" "cpu s" "peak RSS"
for n in "$half" "$events"; do
  f=$data/dumper-$n.txt
  lines=$(wc -l <"$f")
  wc_s=$( { /usr/bin/time -f %e taskset -c "$core" wc -l "$f" >/dev/null; } 2>&1)
  rm -f "$data/dumper.db"
  out=$( { /usr/bin/time -f "%e %U %S %M" taskset -c "$core" "$cli" ingest --db "$data/dumper.db" --machine BENCH \
             --format csv "$f" >/dev/null; } 2>&1)
  read -r wall user sys rss <<<"$out"
  printf '%-10s %12s %10s %10s %10s %9s KB\n' "$((lines - 7))" "$(stat -c %s "$f")" "$wc_s" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$rss"
done
