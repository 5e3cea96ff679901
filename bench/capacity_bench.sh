#!/usr/bin/env bash
# The capacity forecast's cost on one core (issue 40): 10,400 entities x 365 days by default.
# Usage: bench/capacity_bench.sh [ENTITIES] [DAYS]. Numbers: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DVRECON_BUILD_BENCH=ON >/dev/null
cmake --build build-bench -j"$(nproc)" --target vrecon_bench_capacity >/dev/null
taskset -c 0 build-bench/bench/vrecon_bench_capacity "${1:-10400}" "${2:-365}"
