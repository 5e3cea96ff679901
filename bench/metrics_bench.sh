#!/usr/bin/env bash
# /metrics for 5,000 VMs x 10 processes (issue 17's target: under 250 ms on one core): the
# render alone, then a whole scrape's work (read the latest windows back + render) from a new
# SQLite store and, when PGHOST/PGUSER/PGPASSWORD name a server, from a new PostgreSQL database.
# Usage: bench/metrics_bench.sh [VMS] [PROCESSES]. Numbers: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
vms=${1:-5000}; procs=${2:-10}
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DVRECON_BUILD_BENCH=ON >/dev/null
cmake --build build-bench -j"$(nproc)" --target vrecon_bench_metrics >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
taskset -c 0 build-bench/bench/vrecon_bench_metrics "$vms" "$procs" 20 --db "$tmp/metrics.db"
if [ -n "${PGHOST:-}" ] && psql -qc "DROP DATABASE IF EXISTS vrecon_metrics_bench" -c "CREATE DATABASE vrecon_metrics_bench" postgres 2>/dev/null; then
  taskset -c 0 build-bench/bench/vrecon_bench_metrics "$vms" "$procs" 20 \
    --db "postgresql://${PGUSER:-postgres}@${PGHOST}:${PGPORT:-5432}/vrecon_metrics_bench" | tail -1
  psql -qc "DROP DATABASE vrecon_metrics_bench" postgres
fi
