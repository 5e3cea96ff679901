#!/usr/bin/env bash
# SQLite against PostgreSQL (issue 16, "Benchmark"), same machine, same run, one core
# (taskset; the PostgreSQL server process is pinned to the same core): `vrecon ingest` of the
# 74 MB benchmark log (bench/gen_perfmon.py, one day of 15 s rows, ~1,000 counters) into a fresh
# store of each backend, then `correct --format json` and `report --format csv` of the fleet
# fixture. PostgreSQL is a throw-away cluster from Debian's pg_virtualenv, over its Unix socket.
#
#   bash bench/store_backends_bench.sh              # uses/creates build-bench/
#   BUILD_DIR=/path REPEAT=3 bash bench/store_backends_bench.sh
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/lib.sh
source "$SRC_DIR/bench/lib.sh"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
DATA_DIR="${DATA_DIR:-$BUILD_DIR/bench-data}"
REPEAT="${REPEAT:-3}"
CORE="${CORE:-0}"
CLI="$BUILD_DIR/src/cli/vrecon"

if [ -z "${PGHOST:-}" ]; then
  # Run again inside a throw-away cluster.
  if [ ! -x "$CLI" ] || [ "${REBUILD:-1}" = 1 ]; then
    cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD_DIR" -j2 --target vrecon >/dev/null
  fi
  mkdir -p "$DATA_DIR"
  F="$DATA_DIR/guest-1x.csv"
  [ -f "$F" ] || python3 "$SRC_DIR/bench/gen_perfmon.py" --out "$F" --rows 5760 --columns 1000 --seed 1
  exec env REBUILD=0 pg_virtualenv bash "$0" "$@"
fi

F="$DATA_DIR/guest-1x.csv"
PIN=(taskset -c "$CORE")
# The server's backends fork from the postmaster: pinning it pins the connections too.
pin_postgres "$CORE"
createdb vrecon_bench


sqlite_ingest() { rm -f "$DATA_DIR/b.db"*; "${PIN[@]}" "$CLI" ingest --db "$DATA_DIR/b.db" "$F"; }
pg_ingest() {
  psql -qc "DROP SCHEMA IF EXISTS b CASCADE; CREATE SCHEMA b" vrecon_bench
  "${PIN[@]}" "$CLI" ingest --db "postgresql:///vrecon_bench?options=-csearch_path%3Db" "$F"
}
s_ingest=$(best sqlite_ingest)
p_ingest=$(best pg_ingest)

FLEET=("$SRC_DIR/fixtures/report/fleet-guests.csv" "$SRC_DIR/fixtures/report/fleet-esxtop.csv")
rm -f "$DATA_DIR/f.db"*
"$CLI" ingest --db "$DATA_DIR/f.db" "${FLEET[@]}" >/dev/null
"$CLI" ingest --db "postgresql:///vrecon_bench" "${FLEET[@]}" >/dev/null
s_correct=$(best "${PIN[@]}" "$CLI" correct --db "$DATA_DIR/f.db" --format json)
p_correct=$(best "${PIN[@]}" "$CLI" correct --db "postgresql:///vrecon_bench" --format json)
s_report=$(best "${PIN[@]}" "$CLI" report --db "$DATA_DIR/f.db" --format csv --out -)
p_report=$(best "${PIN[@]}" "$CLI" report --db "postgresql:///vrecon_bench" --format csv --out -)

ratio_table "ingest 74 MB log:$s_ingest:$p_ingest" "correct (4-VM fixture):$s_correct:$p_correct" \
  "report csv (4-VM fixture):$s_report:$p_report"
