#!/usr/bin/env bash
# SQLite against PostgreSQL at estate scale (issue 16, "Benchmark"; numbers in
# docs/performance.md and docs/scaling.md), same machine, same run, one core (taskset; the
# PostgreSQL server's processes are pinned to the same core):
#   - `vrecon report` (HTML and CSV) of stored corrections for VMS VMs x DAYS days
#     (bench/report_bench_gen.py: 300 s windows, 20 processes per VM in hourly aggregates);
#   - `vrecon correct --format csv` of CVMS VMs x 24 h of samples (bench/fleet_correct_bench.cc
#     generate: guest 15 s with 2 vCPUs and 50 processes, host 20 s vSphere cpu.usage.average).
# PostgreSQL is a throw-away cluster from Debian's pg_virtualenv, over its Unix socket.
#
#   bash bench/store_scale_bench.sh                   # 1,000 VMs x 7 days; 200 VMs x 24 h
#   VMS=100 CVMS=20 REPEAT=1 bash bench/store_scale_bench.sh   # quick
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/lib.sh
source "$SRC_DIR/bench/lib.sh"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
DATA_DIR="${DATA_DIR:-$BUILD_DIR/scale-data}"
VMS="${VMS:-1000}" DAYS="${DAYS:-7}" CVMS="${CVMS:-200}" REPEAT="${REPEAT:-3}" CORE="${CORE:-0}"
CLI="$BUILD_DIR/src/cli/vrecon"
BENCH="$BUILD_DIR/bench/vrecon_bench_fleet"

if [ -z "${PGHOST:-}" ]; then
  if [ "${REBUILD:-1}" = 1 ]; then
    cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD_DIR" -j2 --target vrecon vrecon_bench_fleet >/dev/null
  fi
  mkdir -p "$DATA_DIR"
  exec env REBUILD=0 pg_virtualenv bash "$0" "$@"
fi

PIN=(taskset -c "$CORE")
pin_postgres "$CORE"
createdb vrecon_scale
PG_REPORT="postgresql:///vrecon_scale?options=-csearch_path%3Dreport"
PG_CORRECT="postgresql:///vrecon_scale?options=-csearch_path%3Dcorrect"
psql -q -c "CREATE SCHEMA report; CREATE SCHEMA correct" vrecon_scale

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b - a}'; }

# Stored corrections for the report, into both stores.
S_REPORT="$DATA_DIR/report-${VMS}x${DAYS}.db"
rm -f "$S_REPORT"*
t0=$(date +%s.%N)
"$CLI" ingest --db "$S_REPORT" "$SRC_DIR/fixtures/seed003/guest-web01.csv" >/dev/null  # creates + migrates
python3 "$SRC_DIR/bench/report_bench_gen.py" "$S_REPORT" "$VMS" "$DAYS" 20
"$CLI" ingest --db "$PG_REPORT" "$SRC_DIR/fixtures/seed003/guest-web01.csv" >/dev/null
python3 "$SRC_DIR/bench/report_bench_gen.py" --copy "$VMS" "$DAYS" 20 | psql -q "$PG_REPORT"
psql -q -c "VACUUM ANALYZE" "$PG_REPORT"
echo "report stores: $VMS VMs x $DAYS days in $(elapsed "$t0") s; SQLite $(du -m "$S_REPORT" | cut -f1) MB," \
  "PostgreSQL $(psql -Atc "SELECT round(sum(pg_total_relation_size(c.oid)) / 1048576) FROM pg_class c JOIN pg_namespace n \
ON n.oid = c.relnamespace WHERE n.nspname = 'report' AND c.relkind = 'r'" vrecon_scale) MB"

# Samples for the correction, into both stores.
S_CORRECT="$DATA_DIR/correct-${CVMS}.db"
rm -f "$S_CORRECT"*
t0=$(date +%s.%N)
"$BENCH" generate --db "$S_CORRECT" --vms "$CVMS" >/dev/null
"$BENCH" generate --db "$PG_CORRECT" --vms "$CVMS" >/dev/null
psql -q -c "VACUUM ANALYZE" "$PG_CORRECT"
echo "correct stores: $CVMS VMs x 24 h in $(elapsed "$t0") s; SQLite $(du -m "$S_CORRECT" | cut -f1) MB," \
  "PostgreSQL $(psql -Atc "SELECT round(sum(pg_total_relation_size(c.oid)) / 1048576) FROM pg_class c JOIN pg_namespace n \
ON n.oid = c.relnamespace WHERE n.nspname = 'correct' AND c.relkind = 'r'" vrecon_scale) MB"

s_html=$(best "${PIN[@]}" "$CLI" report --db "$S_REPORT" --format html --out "$DATA_DIR/s.html")
p_html=$(best "${PIN[@]}" "$CLI" report --db "$PG_REPORT" --format html --out "$DATA_DIR/p.html")
s_csv=$(best "${PIN[@]}" "$CLI" report --db "$S_REPORT" --format csv --out "$DATA_DIR/s.csv")
p_csv=$(best "${PIN[@]}" "$CLI" report --db "$PG_REPORT" --format csv --out "$DATA_DIR/p.csv")
s_cor=$(best "${PIN[@]}" "$CLI" correct --db "$S_CORRECT" --format csv)
p_cor=$(best "${PIN[@]}" "$CLI" correct --db "$PG_CORRECT" --format csv)
# The same answers from both (the CSV names the store on its fleet row).
cmp <(grep -v '^fleet,' "$DATA_DIR/s.csv") <(grep -v '^fleet,' "$DATA_DIR/p.csv") >/dev/null ||
  { echo "report CSVs differ between SQLite and PostgreSQL" >&2; exit 1; }

ratio_table "report html ($VMS VMs x $DAYS d):$s_html:$p_html" "report csv ($VMS VMs x $DAYS d):$s_csv:$p_csv" \
  "correct csv ($CVMS VMs x 24 h):$s_cor:$p_cor"
