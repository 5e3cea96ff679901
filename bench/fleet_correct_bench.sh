#!/usr/bin/env bash
# Fleet correction benchmark (issue 4, "Performance"; numbers in docs/performance.md): a store
# of VMS VMs x 24 h (guest 15 s, 2 vCPUs + _Total + 50 processes; host 20 s vSphere
# cpu.usage.average) written straight through BlockWriter, then on one core (taskset -c $CORE):
#   (a) one SQLite scan decoding every sample block (vrecon_bench_fleet scan),
#   (b) the correction of every VM, one VM at a time, in process, with and without the clock
#       alignment,
#   (c) `vrecon correct --format csv > /dev/null` end to end.
# Target: (b) <= 2x (a). Prints CPU seconds (best of REPEAT) and the ratios.
#
# Guest and host follow one load curve (guest clock 5-40 s ahead) unless --noise: independent
# noise on both sides, the clock alignment's worst case.
#
#   bash bench/fleet_correct_bench.sh --vms 50            # quick
#   BUILD_DIR=/path REPEAT=3 bash bench/fleet_correct_bench.sh   # 1,000 VMs (about 3 GB of store)
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
REPEAT="${REPEAT:-3}"
CORE="${CORE:-1}"
VMS=1000
SHAPE=curve
while [ $# -gt 0 ]; do
  case "$1" in
    --vms) VMS="$2"; shift 2 ;;
    --noise) SHAPE=noise; shift ;;
    *) echo "usage: $0 [--vms N] [--noise]" >&2; exit 2 ;;
  esac
done
DATA_DIR="${DATA_DIR:-$BUILD_DIR/fleet-data}"
DB="$DATA_DIR/fleet-$VMS-$SHAPE.db"

BENCH="$BUILD_DIR/bench/vrecon_bench_fleet"
CLI="$BUILD_DIR/src/cli/vrecon"
if [ ! -x "$BENCH" ] || [ ! -x "$CLI" ] || [ "${REBUILD:-1}" = 1 ]; then
  cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD_DIR" -j2 --target vrecon_bench_fleet vrecon >/dev/null
fi

mkdir -p "$DATA_DIR"
if [ ! -f "$DB" ]; then
  t0=$(date +%s.%N)
  flags=(); [ "$SHAPE" = noise ] && flags=(--noise)
  "$BENCH" generate --db "$DB" --vms "$VMS" "${flags[@]}" >/dev/null
  echo "generated $DB ($(du -m "$DB" | cut -f1) MB) in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s"
fi

# Best CPU seconds of REPEAT runs of "$@" (the line "<mode>: cpu_seconds=X").
best() {
  local b=""
  for _ in $(seq "$REPEAT"); do
    local s
    s=$(taskset -c "$CORE" "$@" | sed -n 's/.*cpu_seconds=//p')
    b=$(awk -v b="$b" -v s="$s" 'BEGIN{print (b=="" || s<b) ? s : b}')
  done
  echo "$b"
}
cat "$DB" >/dev/null  # every run reads from the page cache
scan=$(best "$BENCH" scan --db "$DB")
correct=$(best "$BENCH" correct --db "$DB")
noalign=$(best "$BENCH" correct --db "$DB" --no-align)
cli_best=""
for _ in $(seq "$REPEAT"); do
  s=$( { /usr/bin/time -f '%U %S' taskset -c "$CORE" "$CLI" correct --db "$DB" --format csv >/dev/null; } 2>&1 | tail -1 |
       awk '{print $1+$2}')
  cli_best=$(awk -v b="$cli_best" -v s="$s" 'BEGIN{print (b=="" || s<b) ? s : b}')
done
awk -v vms="$VMS" -v a="$scan" -v b="$correct" -v n="$noalign" -v c="$cli_best" 'BEGIN{
  printf "VMs %d, CPU seconds on one core (best of runs)\n", vms
  printf "  (a) SQLite scan of all samples          %8.2f\n", a
  printf "  (b) correction, aligned                 %8.2f  = %.1fx (a)   target <= 2x\n", b, b/a
  printf "      correction, --no-align              %8.2f  = %.1fx (a)\n", n, n/a
  printf "  (c) vrecon correct --format csv >/dev/null %5.2f  = %.1fx (a)\n", c, c/a }'
