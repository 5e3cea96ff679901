#!/usr/bin/env bash
# A fleet round's recompute against the history kept (issue 16: a round's cost must not grow with
# the days kept; numbers in docs/performance.md). For each HOURS in $HISTORY, a store of VMS VMs
# written as rounds write it (a file per VM and side every 5 minutes: guest 15 s with 2 vCPUs and
# PROCS processes, host 20 s vSphere cpu.usage.average; bench/fleet_correct_bench.cc generate
# --file-minutes 5), then `vrecon_bench_fleet round`: StoreCorrections from 10 minutes before the
# data's end, as a round does after storing its samples (the correction and the Ready-Time
# summaries). Best wall time of REPEAT runs after one warm-up (the first round also writes the
# summaries of every earlier day), one core, SQLite and PostgreSQL (pg_virtualenv) side by side.
#
#   bash bench/round_history_bench.sh                          # 50 VMs; 24, 96, 192 h
#   VMS=20 HISTORY="24 48" REPEAT=1 bash bench/round_history_bench.sh   # quick
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/lib.sh
source "$SRC_DIR/bench/lib.sh"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
DATA_DIR="${DATA_DIR:-$BUILD_DIR/round-history}"
VMS="${VMS:-50}" PROCS="${PROCS:-10}" HISTORY="${HISTORY:-24 96 192}" REPEAT="${REPEAT:-3}" CORE="${CORE:-0}"
BENCH="$BUILD_DIR/bench/vrecon_bench_fleet"

if [ -z "${PGHOST:-}" ]; then
  if [ "${REBUILD:-1}" = 1 ]; then
    cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD_DIR" -j2 --target vrecon_bench_fleet >/dev/null
  fi
  mkdir -p "$DATA_DIR"
  exec env REBUILD=0 pg_virtualenv bash "$0" "$@"
fi

PIN=(taskset -c "$CORE")
pin_postgres "$CORE"
createdb vrecon_rounds
rows=()
for h in $HISTORY; do
  sqlite="$DATA_DIR/rounds-${VMS}x${h}h.db"
  rm -f "$sqlite"*
  psql -q -c "CREATE SCHEMA h$h" vrecon_rounds
  pg="postgresql:///vrecon_rounds?options=-csearch_path%3Dh$h"
  "$BENCH" generate --db "$sqlite" --vms "$VMS" --hours "$h" --processes "$PROCS" --file-minutes 5 >/dev/null
  "$BENCH" generate --db "$pg" --vms "$VMS" --hours "$h" --processes "$PROCS" --file-minutes 5 >/dev/null
  psql -q -c "VACUUM ANALYZE" "$pg"
  for db in "$sqlite" "$pg"; do "$BENCH" round --db "$db" --hours "$h" >/dev/null; done  # warm-up
  s=$(best "${PIN[@]}" "$BENCH" round --db "$sqlite" --hours "$h")
  p=$(best "${PIN[@]}" "$BENCH" round --db "$pg" --hours "$h")
  rows+=("round, $VMS VMs, ${h} h kept:$s:$p")
done
ratio_table "${rows[@]}"
