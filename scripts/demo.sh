#!/usr/bin/env bash
# Builds vrecon and runs the main job on the bundled example: the seed article's worked
# example (a 1-vCPU guest at 73% with processes A 40% and B 20%; Hyper-V measured 88%).
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what building vrecon needs; the build's output goes to a log shown only if it fails.
scripts/install-deps.sh --build-only
log=build-demo/build.log
mkdir -p build-demo
echo "building vrecon (log: $log) ..."
# A unity build, as scripts/test.sh's: the first build in about two thirds of the time.
if ! { cmake -S . -B build-demo -DCMAKE_BUILD_TYPE=Release -DVRECON_BUILD_TESTS=OFF -DVRECON_BUILD_BENCH=OFF \
         -DCMAKE_UNITY_BUILD=ON &&
       cmake --build build-demo -j"$(nproc)" --target vrecon; } >"$log" 2>&1; then
  tail -n 40 "$log"
  echo "demo: the build failed; the whole log is in $log" >&2
  exit 1
fi
build=build-demo
db=$build/example.db
rm -f "$db" "$db-wal" "$db-shm"
"$build"/src/cli/vrecon ingest --db "$db" fixtures/seed003/guest-web01.csv fixtures/seed003/hyperv-hv01.csv
echo
"$build"/src/cli/vrecon correct --db "$db" --vm WEB01 --format table
echo
"$build"/src/cli/vrecon report --db "$db" --out "$build"/example-report.html
echo "HTML report for capacity planners: $build/example-report.html (vrecon report --help for csv, json, pdh-csv, markdown)"
