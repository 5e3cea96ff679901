#!/usr/bin/env bash
# Backtests of the capacity forecast against statsmodels' Holt-Winters and a linear regression
# (issue 40, "Measured"; numbers in docs/capacity.md). bench/capacity_backtest.cc draws simulated
# histories with known futures and forecasts them; bench/capacity_baselines.py forecasts the same
# histories with the baselines and prints the table. Needs python3-statsmodels (Debian). Then
# bench/capacity_backfill_backtest.cc: the same forecast from a vCenter backfill's rollups, read
# as they are and scaled, beside the history a collector would have had (docs/capacity.md,
# "Backfill").
# Usage: bench/capacity_backtest.sh [SEEDS] (default 20 a case).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DVRECON_BUILD_BENCH=ON >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" --target vrecon_bench_capacity_backtest \
  vrecon_bench_capacity_backfill_backtest >/dev/null
"$BUILD_DIR/bench/vrecon_bench_capacity_backtest" "$out" "${1:-20}"
/usr/bin/python3 bench/capacity_baselines.py "$out"
echo
echo "== a forecast from a backfill's rollups"
"$BUILD_DIR/bench/vrecon_bench_capacity_backfill_backtest" "${1:-20}"
