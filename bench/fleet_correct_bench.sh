#!/usr/bin/env bash
# Fleet correction benchmark (issue 4, "Performance"; numbers in docs/performance.md): a store
# of VMS VMs x 24 h (guest 15 s, 2 vCPUs + _Total + 50 processes; host 20 s vSphere
# cpu.usage.average) written straight through BlockWriter, then on one core (taskset -c $CORE):
#   (a) one SQLite scan decoding every sample block (vrecon_bench_fleet scan),
#   (b) the correction of every VM, one VM at a time, in process, with and without the clock
#       alignment,
#   (c) `vrecon correct --format csv > /dev/null` end to end.
# Target: (b) <= 2x (a). Prints each loop's CPU seconds and ratios, then the medians.
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

# CPU seconds of one run of "$@" (the line "<mode>: cpu_seconds=X").
cpu() { taskset -c "$CORE" "$@" | sed -n 's/.*cpu_seconds=//p'; }
# The median of the arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
cat "$DB" >/dev/null  # every run reads from the page cache
# Interleaved loops of (scan, aligned, --no-align): this machine's speed drifts by 20-30% over
# minutes, so each loop's ratios compare runs made within seconds of each other.
ratios=(); noalign_ratios=(); scans=(); corrects=(); noaligns=()
echo "VMs $VMS ($SHAPE), CPU seconds on core $CORE, $REPEAT interleaved loops"
for i in $(seq "$REPEAT"); do
  a=$(cpu "$BENCH" scan --db "$DB")
  b=$(cpu "$BENCH" correct --db "$DB")
  n=$(cpu "$BENCH" correct --db "$DB" --no-align)
  scans+=("$a"); corrects+=("$b"); noaligns+=("$n")
  ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", b/a}')")
  noalign_ratios+=("$(awk -v a="$a" -v n="$n" 'BEGIN{printf "%.2f", n/a}')")
  printf '  loop %d: (a) scan %5.2f  (b) aligned %5.2f = %sx  --no-align %5.2f = %sx\n' \
    "$i" "$a" "$b" "${ratios[-1]}" "$n" "${noalign_ratios[-1]}"
done
cli_best=""
for _ in $(seq "$REPEAT"); do
  s=$( { /usr/bin/time -f '%U %S' taskset -c "$CORE" "$CLI" correct --db "$DB" --format csv >/dev/null; } 2>&1 | tail -1 |
       awk '{print $1+$2}')
  cli_best=$(awk -v b="$cli_best" -v s="$s" 'BEGIN{print (b=="" || s<b) ? s : b}')
done
awk -v a="$(median "${scans[@]}")" -v b="$(median "${corrects[@]}")" -v n="$(median "${noaligns[@]}")" \
    -v rb="$(median "${ratios[@]}")" -v rn="$(median "${noalign_ratios[@]}")" -v c="$cli_best" 'BEGIN{
  printf "medians:\n"
  printf "  (a) SQLite scan of all samples          %8.2f\n", a
  printf "  (b) correction, aligned                 %8.2f  per-loop ratio %.2fx (a)   target <= 2x\n", b, rb
  printf "      correction, --no-align              %8.2f  per-loop ratio %.2fx (a)\n", n, rn
  printf "  (c) vrecon correct --format csv >/dev/null %5.2f (best)  = %.1fx (a)\n", c, c/a }'
