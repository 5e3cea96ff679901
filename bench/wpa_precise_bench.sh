#!/usr/bin/env bash
# WPA CPU Usage (Precise) ingest benchmark (issue 18): a synthetic export of ~2 million rows (8
# CPUs, 60 s, 200 processes, in a view's order; bench/gen_wpa_precise.py) and one of half as many,
# each ingested into a fresh SQLite store by `vrecon ingest` pinned to one core, under
# /usr/bin/time (wall, CPU, peak RSS). Baseline in the same run: `wc -l` of the same file on the
# same core. The reader holds every row until it has sorted them: the peak RSS of the two sizes
# gives the memory per row (their difference over the difference in rows). Not a test.
#
#   bash bench/wpa_precise_bench.sh [BUILD_DIR]     (default build/; CORE=0, ROWS=2000000)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
core=${CORE:-0}
rows=${ROWS:-2000000}
cli=$build/src/cli/vrecon
[ -x "$cli" ] || cmake --build "$build" --target vrecon -j"$(nproc)" >/dev/null
data=$build/bench-data
mkdir -p "$data"
half=$((rows / 2))
for n in "$half" "$rows"; do
  f=$data/wpa-precise-$n.csv
  # Half the rows over half the time: the same rate, an export half as long.
  [ -f "$f" ] || python3 "$src/bench/gen_wpa_precise.py" "$f" "$n" 8 $((60 * n / rows)) 200
done
printf '%-10s %12s %10s %10s %10s %12s\n' rows bytes "wc -l s" "ingest s" "cpu s" "peak RSS"
declare -A rss_of
for n in "$half" "$rows"; do
  f=$data/wpa-precise-$n.csv
  lines=$(wc -l <"$f")
  wc_s=$( { /usr/bin/time -f %e taskset -c "$core" wc -l "$f" >/dev/null; } 2>&1)
  rm -f "$data/wpa.db"
  out=$( { /usr/bin/time -f "%e %U %S %M" taskset -c "$core" "$cli" ingest --db "$data/wpa.db" --machine BENCH \
             --trace-start 2026-11-02T10:00:00Z --format csv "$f" >/dev/null; } 2>&1)
  read -r wall user sys rss <<<"$out"
  rss_of[$n]=$rss
  printf '%-10s %12s %10s %10s %10s %9s KB\n' "$((lines - 1))" "$(stat -c %s "$f")" "$wc_s" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$rss"
done
awk -v a="${rss_of[$half]}" -v b="${rss_of[$rows]}" -v n="$((rows - half))" \
  'BEGIN { printf "peak RSS per row: %.1f bytes\n", (b - a) * 1024 / n }'
