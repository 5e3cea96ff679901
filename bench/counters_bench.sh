#!/usr/bin/env bash
# Cost of the typed counters (docs/counter-types.md): one guest, 24 h at 15 s with 87 counters
# (20 processes' % Processor Time, Working Set, IO Data Bytes/sec, Thread Count; memory, disk and
# queue counters) and a Hyper-V host log at 20 s, ingested once; then, on one core, the median
# wall time of 5 runs of `vrecon correct`, `vrecon counters` and `vrecon correct --counters`
# (JSON to /dev/null). Results go into docs/performance.md.
#
#   bash bench/counters_bench.sh            # uses/creates build-bench/
#   BUILD_DIR=/path CORE=1 bash bench/counters_bench.sh
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
CORE="${CORE:-1}"
CLI="$BUILD_DIR/src/cli/vrecon"
if [ ! -x "$CLI" ] || [ "${REBUILD:-1}" = 1 ]; then
  cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD_DIR" -j2 --target vrecon >/dev/null
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

python3 - "$WORK" <<'PY'
import datetime, random, sys
out = sys.argv[1]
random.seed(1)
t0 = datetime.datetime(2026, 11, 2)
cols = ["Processor(0)\\% Processor Time", "Processor(_Total)\\% Processor Time"]
cols += ["Process(p%d)\\%% Processor Time" % p for p in range(20)]
for p in range(20):
    cols += ["Process(p%d)\\Working Set" % p, "Process(p%d)\\IO Data Bytes/sec" % p, "Process(p%d)\\Thread Count" % p]
cols += ["Memory\\Pages/sec", "Memory\\Available MBytes", "LogicalDisk(C:)\\Avg. Disk sec/Transfer",
         "LogicalDisk(C:)\\Disk Transfers/sec", "System\\Processor Queue Length"]
with open(out + "/g.csv", "w") as f:
    f.write('"(PDH-CSV 4.0) (UTC)(0)"' + "".join(',"\\\\G1\\%s"' % c for c in cols) + "\n")
    for i in range(5761):
        ts = (t0 + datetime.timedelta(seconds=15 * i)).strftime("%m/%d/%Y %H:%M:%S.000")
        f.write('"%s",' % ts + ",".join('"%.3f"' % random.uniform(1, 50) for _ in cols) + "\n")
with open(out + "/h.csv", "w") as f:
    f.write('"(PDH-CSV 4.0) (UTC)(0)","\\\\HV\\Hyper-V Hypervisor Virtual Processor(G1:Hv VP 0)\\% Total Run Time",'
            '"\\\\HV\\LogicalDisk(D:)\\Avg. Disk sec/Transfer"\n')
    for i in range(4321):
        ts = (t0 + datetime.timedelta(seconds=20 * i)).strftime("%m/%d/%Y %H:%M:%S.000")
        f.write('"%s","%.3f","%.4f"\n' % (ts, random.uniform(10, 60), random.uniform(0.001, 0.01)))
PY
"$CLI" ingest --db "$WORK/b.db" "$WORK/g.csv" "$WORK/h.csv" >/dev/null

median() {  # runs "$@" 5 times on one core, prints the median wall time in seconds
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%e" taskset -c "$CORE" "$@" >/dev/null 2>>"$WORK/t" || true
    tail -n1 "$WORK/t"
  done | sort -n | sed -n 3p
}
echo "correct             $(median "$CLI" correct --db "$WORK/b.db" --format json) s"
echo "counters            $(median "$CLI" counters --db "$WORK/b.db" --format json) s"
echo "correct --counters  $(median "$CLI" correct --counters --db "$WORK/b.db" --format json) s"
