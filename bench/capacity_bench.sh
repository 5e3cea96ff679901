#!/usr/bin/env bash
# Capacity's costs on one core (issue 40; numbers in docs/performance.md, "Capacity"):
#   forecast  the daily forecast alone of ENTITIES series of DAYS days (vrecon_bench_capacity);
#   command   `vrecon capacity` over a store of VMS VMs on HOSTS hosts with DAYS days of day digests
#             (bench/capacity_store_bench.cc writes it once, about 2 GB at the defaults), table and
#             json, wall time and peak RSS (/usr/bin/time), best of REPEAT;
#   round     what a fleet round's day-digest update adds: a store of ROUND_VMS VMs x 24 h written
#             as rounds write it, then ROUNDS more 5-minute rounds, each's corrections and digest
#             update timed apart (vrecon_bench_fleet round --capacity), twice from the same copy:
#             every VM's digests each round, then those a collector every EVERY seconds updates
#             (CapacityDigestsDue: each VM once an hour).
# Usage: bench/capacity_bench.sh [forecast|command|round|all] (default all).
#   ENTITIES=10400 DAYS=365 VMS=10000 HOSTS=400 REPEAT=3 ROUND_VMS=200 ROUNDS=6 EVERY=300 CORE=0
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
BUILD_DIR=${BUILD_DIR:-build-bench}
DATA_DIR=${DATA_DIR:-$BUILD_DIR/capacity-data}
ENTITIES=${ENTITIES:-10400} DAYS=${DAYS:-365} VMS=${VMS:-10000} HOSTS=${HOSTS:-400} REPEAT=${REPEAT:-3}
ROUND_VMS=${ROUND_VMS:-200} ROUNDS=${ROUNDS:-6} EVERY=${EVERY:-300} CORE=${CORE:-0}
PIN=(taskset -c "$CORE")

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DVRECON_BUILD_BENCH=ON >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" --target vrecon_bench_capacity vrecon_bench_capacity_store \
  vrecon_bench_fleet vrecon >/dev/null
mkdir -p "$DATA_DIR"

if [ "$what" = forecast ] || [ "$what" = all ]; then
  echo "== forecast"
  "${PIN[@]}" "$BUILD_DIR/bench/vrecon_bench_capacity" "$ENTITIES" "$DAYS"
fi

if [ "$what" = command ] || [ "$what" = all ]; then
  echo "== vrecon capacity"
  db="$DATA_DIR/store-$VMS-$HOSTS-$DAYS.db"
  [ -s "$db" ] || "$BUILD_DIR/bench/vrecon_bench_capacity_store" "$db" "$VMS" "$HOSTS" "$DAYS"
  for format in table json; do
    best=""
    for _ in $(seq 1 "$REPEAT"); do
      t=$("${PIN[@]}" /usr/bin/time -f "%e s, peak RSS %M KB" "$BUILD_DIR/src/cli/vrecon" capacity --db "$db" \
        --format "$format" 2>&1 >/dev/null | grep "peak RSS")
      if [ -z "$best" ] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    echo "--format $format: $best (best of $REPEAT)"
  done
fi

if [ "$what" = round ] || [ "$what" = all ]; then
  echo "== a fleet round's digest update ($ROUND_VMS VMs, 24 h kept)"
  fleet="$BUILD_DIR/bench/vrecon_bench_fleet"
  db="$DATA_DIR/rounds-$ROUND_VMS.db"
  rm -f "$db"*
  gen=(--db "$db" --vms "$ROUND_VMS" --hours 24 --processes 10 --file-minutes 5)
  "$fleet" generate "${gen[@]}" >/dev/null
  "$fleet" round --db "$db" --hours 24 --capacity >/dev/null  # every day's digests, once
  cp "$db" "$db.start"
  for mode in all "every $EVERY s"; do
    echo "-- digests of: $mode"
    cp "$db.start" "$db"
    rm -f "$db-wal" "$db-shm"
    due=(); [ "$mode" = all ] || due=(--every "$EVERY")
    for r in $(seq 1 "$ROUNDS"); do
      to=$((1440 + 5 * r))
      "$fleet" generate "${gen[@]}" --from-minutes $((to - 5)) --to-minutes "$to" >/dev/null
      "${PIN[@]}" "$fleet" round --db "$db" --hours 24 --to-minutes "$to" --capacity "${due[@]}" | grep '^round: windows'
    done
  done
  rm -f "$db.start"
fi
