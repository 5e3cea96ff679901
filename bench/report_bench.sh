#!/usr/bin/env bash
# Report benchmark (issue 6, "Performance"): a store holding stored corrections for 1,000 VMs x
# 7 days of 300 s windows (2,016,000 windows; 20 processes per VM in hourly aggregates), written
# directly into the corr_* tables by bench/report_bench_gen.py, then `vrecon report` as HTML and
# as CSV pinned to one core (`taskset -c $CORE`), under /usr/bin/time -v for wall time and peak
# RSS. Targets: HTML <= 5 s, CSV <= 2 s, peak RSS <= 256 MB, HTML file < 10 MB.
#
#   bash bench/report_bench.sh                      # uses build-bench/ (builds vrecon)
#   BUILD_DIR=build-powercli VMS=1000 DAYS=7 bash bench/report_bench.sh
set -euo pipefail
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
DATA_DIR="${DATA_DIR:-$BUILD_DIR/bench-data}"
VMS="${VMS:-1000}" DAYS="${DAYS:-7}" PROCS="${PROCS:-20}" CORE="${CORE:-1}" REPEAT="${REPEAT:-3}"

[ -x "$BUILD_DIR/src/cli/vrecon" ] || {
  cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD_DIR" -j2 --target vrecon >/dev/null
}
VRECON="$BUILD_DIR/src/cli/vrecon"
mkdir -p "$DATA_DIR"
DB="$DATA_DIR/report-${VMS}x${DAYS}.db"
if [ ! -s "$DB" ]; then
  rm -f "$DB" "$DB-wal" "$DB-shm"
  "$VRECON" ingest --db "$DB" "$SRC_DIR/fixtures/seed003/guest-web01.csv" >/dev/null  # creates + migrates
  python3 "$SRC_DIR/bench/report_bench_gen.py" "$DB" "$VMS" "$DAYS" "$PROCS"
fi
echo "store: $DB ($(du -h "$DB" | cut -f1))"

run() {  # format, out: every run's wall time, then best / median / worst
  local walls="" peak_rss=""
  for _ in $(seq "$REPEAT"); do
    /usr/bin/time -v -o "$DATA_DIR/time.txt" taskset -c "$CORE" "$VRECON" report --db "$DB" --format "$1" --out "$2" 2>/dev/null
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$DATA_DIR/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$DATA_DIR/time.txt")
    walls="$walls $wall"
    if [ -z "$peak_rss" ] || [ "$rss" -gt "$peak_rss" ]; then peak_rss=$rss; fi
  done
  printf '%-8s %s runs: best %s  median %s  worst %s s  (all:%s)  peak RSS %6.1f MB  output %6.1f MB\n' "$1" "$REPEAT" \
    $(echo $walls | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {print a[1], a[int((NR+1)/2)], a[NR]}') "$walls" \
    "$(awk "BEGIN{print $peak_rss/1024}")" "$(awk "BEGIN{print $(stat -c %s "$2")/1048576}")"
}
run html "$DATA_DIR/report.html"
run csv "$DATA_DIR/report.csv"
run json "$DATA_DIR/report.json"
