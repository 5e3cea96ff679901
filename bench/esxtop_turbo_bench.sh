#!/usr/bin/env bash
# esxtop's `% Used` against `% Run` as the host's truth (issue 39 part 2; table in
# docs/accuracy.md, "esxtop: % Used or % Run"): for each turbo factor, scenario and seed,
# `vrecon-sim generate --esxtop-turbo F` writes the guest log and an esxtop capture whose % Used is
# % Run x F plus 2 points of % System; `vrecon correct` runs with `--esxtop-counter used` (the
# default) and `run`, and `vrecon-sim score` compares each with the truth. Prints per turbo factor
# and scenario, averaged over the seeds: the naive MAE, the corrected MAE with each counter, and
# the windows where the guest is 10+ points off that miss 1.5 points with each.
#   bash bench/esxtop_turbo_bench.sh            # uses/creates build-bench/
#   BUILD_DIR=build SEEDS="1 2 3" TURBO="1.0 1.3" SCENARIOS="calm contention" bash bench/esxtop_turbo_bench.sh
set -euo pipefail
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
SEEDS="${SEEDS:-1 2 3}"
TURBO="${TURBO:-1.0 1.15 1.3}"
SCENARIOS="${SCENARIOS:-calm contention mixed}"
DATA_DIR="${DATA_DIR:-$BUILD_DIR/turbo-data}"
SIM="$BUILD_DIR/tests/sim/vrecon-sim"
CLI="$BUILD_DIR/src/cli/vrecon"
cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j2 --target vrecon-sim vrecon >/dev/null
mkdir -p "$DATA_DIR"

field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

printf '%-6s %-11s %9s %14s %13s %12s %11s\n' turbo scenario naive_mae used_corr_mae run_corr_mae used_missed run_missed
for f in $TURBO; do
  for sc in $SCENARIOS; do
    naive=0; used=0; run=0; um=0; rm_=0; hard=0; n=0
    for seed in $SEEDS; do
      d="$DATA_DIR/$f-$sc-$seed"
      rm -rf "$d"
      "$SIM" generate --scenario "$sc" --seed "$seed" --esxtop-turbo "$f" --out "$d"
      "$CLI" ingest --db "$d/store.db" "$d/guest.csv" "$d/host.csv" >/dev/null
      "$CLI" correct --db "$d/store.db" --format json >"$d/used.json"
      "$CLI" correct --db "$d/store.db" --format json --esxtop-counter run >"$d/run.json"
      a=$("$SIM" score --truth "$d/truth.csv" --correct "$d/used.json" | head -1)
      b=$("$SIM" score --truth "$d/truth.csv" --correct "$d/run.json" | head -1)
      n=$((n + 1)); hard=$((hard + $(field "$a" hard)))
      naive=$(awk -v s="$naive" -v x="$(field "$a" naive_mae)" 'BEGIN{print s+x}')
      used=$(awk -v s="$used" -v x="$(field "$a" corrected_mae)" 'BEGIN{print s+x}')
      run=$(awk -v s="$run" -v x="$(field "$b" corrected_mae)" 'BEGIN{print s+x}')
      um=$((um + $(field "$a" hard_missed))); rm_=$((rm_ + $(field "$b" hard_missed)))
    done
    awk -v f="$f" -v sc="$sc" -v n="$n" -v na="$naive" -v u="$used" -v r="$run" -v um="$um" -v rm="$rm_" -v h="$hard" \
      'BEGIN{ printf "%-6s %-11s %9.2f %14.2f %13.2f %12s %11s\n", f, sc, na/n, u/n, r/n, um "/" h, rm "/" h }'
  done
done
