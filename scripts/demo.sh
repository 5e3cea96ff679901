#!/usr/bin/env bash
# Builds vrecon and runs the main job on the bundled example: the seed article's worked
# example (a 1-vCPU guest at 73% with processes A 40% and B 20%; Hyper-V measured 88%).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target vrecon >/dev/null
db=build/example.db
rm -f "$db" "$db-wal" "$db-shm"
build/src/cli/vrecon ingest --db "$db" fixtures/seed003/guest-web01.csv fixtures/seed003/hyperv-hv01.csv
echo
build/src/cli/vrecon correct --db "$db" --vm WEB01 --format table
echo
build/src/cli/vrecon report --db "$db" --out build/example-report.html
echo "HTML report for capacity planners: build/example-report.html (vrecon report --help for csv, json, pdh-csv, markdown)"
