#!/usr/bin/env bash
# Ingest benchmark (issue #2, "Benchmark"): one day of 15 s guest samples with ~1,000 counters
# (~74 MB of PDH-CSV 4.0) ingested into a fresh SQLite store
#   - by the library (bench/ingest_bench.cc: Store::Open + IngestFile),
#   - by the CLI end to end (`vrecon ingest`, under /usr/bin/time -v for peak RSS),
#   - by the plain Python csv+sqlite3 baseline (bench/baseline_ingest.py) on the same file,
# all pinned to one core with `taskset -c 0`; then the same for a file twice as long to show
# that peak RSS does not grow with the file. Prints a summary table.
#
#   bash bench/run_ingest_bench.sh                  # uses/creates build-bench/
#   BUILD_DIR=/path REPEAT=5 bash bench/run_ingest_bench.sh
#
# Generated data goes to $BUILD_DIR/bench-data (never into the source tree).
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
DATA_DIR="${DATA_DIR:-$BUILD_DIR/bench-data}"
REPEAT="${REPEAT:-3}"
CORE="${CORE:-0}"
ROWS="${ROWS:-5760}"        # one day at 15 s
COLUMNS="${COLUMNS:-1000}"

need_apt=()
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
[ -x /usr/bin/time ] || need_apt+=(time)
command -v taskset >/dev/null 2>&1 || need_apt+=(util-linux)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing ${need_apt[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

BENCH="$BUILD_DIR/bench/vrecon_bench_ingest"
CLI="$BUILD_DIR/src/cli/vrecon"
if [ ! -x "$BENCH" ] || [ ! -x "$CLI" ] || [ "${REBUILD:-1}" = 1 ]; then
  cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD_DIR" -j2 --target vrecon_bench_ingest vrecon >/dev/null
fi

mkdir -p "$DATA_DIR"
F1="$DATA_DIR/guest-1x.csv"
F2="$DATA_DIR/guest-2x.csv"
gen() {  # gen FILE ROWS
  local stamp="$1.args" args="--rows $2 --columns $COLUMNS --seed 1"
  if [ ! -f "$1" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$args $(md5sum < "$SRC_DIR/bench/gen_perfmon.py")" ]; then
    python3 "$SRC_DIR/bench/gen_perfmon.py" --out "$1" $args
    echo "$args $(md5sum < "$SRC_DIR/bench/gen_perfmon.py")" > "$stamp"
  fi
}
gen "$F1" "$ROWS"
gen "$F2" $((ROWS * 2))

PIN=(taskset -c "$CORE")
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" | tail -1; }  # key=value from a line
tv() { sed -n "s/^[[:space:]]*$1: //p" "$2" | tail -1; }                    # from /usr/bin/time -v
secs() {  # h:mm:ss or m:ss.ss -> seconds
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.3f", s }' <<<"$1"
}

lib_run() {  # lib_run FILE -> "wall_s cpu_s rss_kb"
  local out
  out="$("${PIN[@]}" "$BENCH" "$1" --repeat "$REPEAT")"
  echo "$out" | sed 's/^/    /' >&2
  local last; last="$(echo "$out" | tail -1)"
  echo "$(field seconds <<<"$last") $(field cpu_seconds <<<"$last") $(field peak_rss_kb <<<"$last")"
}

cli_run() {  # cli_run FILE -> "best_wall_s best_cpu_s max_rss_kb"
  local best_w="" best_c="" rss=0 db="$DATA_DIR/cli.db" tlog="$DATA_DIR/time.log"
  for ((i = 1; i <= REPEAT; i++)); do
    rm -f "$db" "$db-wal" "$db-shm"
    /usr/bin/time -v "${PIN[@]}" "$CLI" ingest --db "$db" "$1" >/dev/null 2>"$tlog.err" || { cat "$tlog.err" >&2; exit 1; }
    mv "$tlog.err" "$tlog"
    local w c r
    w="$(secs "$(tv 'Elapsed (wall clock) time (h:mm:ss or m:ss)' "$tlog")")"
    c="$(awk -v u="$(tv 'User time (seconds)' "$tlog")" -v s="$(tv 'System time (seconds)' "$tlog")" 'BEGIN{printf "%.3f", u + s}')"
    r="$(tv 'Maximum resident set size (kbytes)' "$tlog")"
    echo "    cli run $i: ${w} s wall, ${c} s cpu, peak RSS ${r} KB" >&2
    if [ -z "$best_w" ] || awk -v a="$w" -v b="$best_w" 'BEGIN{exit !(a < b)}'; then best_w="$w"; fi
    if [ -z "$best_c" ] || awk -v a="$c" -v b="$best_c" 'BEGIN{exit !(a < b)}'; then best_c="$c"; fi
    [ "$r" -gt "$rss" ] && rss="$r"
  done
  rm -f "$db" "$db-wal" "$db-shm"
  echo "$best_w $best_c $rss"
}

base_run() {  # base_run FILE -> "wall_s cpu_s rss_kb" (one run: it is slow)
  local db="$DATA_DIR/baseline.db" tlog="$DATA_DIR/time-base.log" out
  out="$(/usr/bin/time -v "${PIN[@]}" python3 "$SRC_DIR/bench/baseline_ingest.py" --db "$db" "$1" 2>"$tlog")"
  echo "    $out" >&2
  rm -f "$db" "$db-journal"
  local c; c="$(awk -v u="$(tv 'User time (seconds)' "$tlog")" -v s="$(tv 'System time (seconds)' "$tlog")" 'BEGIN{printf "%.3f", u + s}')"
  echo "$(secs "$(tv 'Elapsed (wall clock) time (h:mm:ss or m:ss)' "$tlog")") $c $(tv 'Maximum resident set size (kbytes)' "$tlog")"
}

S1=$(stat -c %s "$F1"); S2=$(stat -c %s "$F2")
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), pinned to core $CORE; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "files: 1x $F1 ($S1 bytes), 2x $F2 ($S2 bytes); best of $REPEAT runs"
echo "library, 1x:" >&2;  read -r L1W L1C L1R <<<"$(lib_run "$F1")"
echo "cli, 1x:" >&2;      read -r C1W C1C C1R <<<"$(cli_run "$F1")"
echo "baseline, 1x:" >&2; read -r B1W B1C B1R <<<"$(base_run "$F1")"
echo "library, 2x:" >&2;  read -r L2W L2C L2R <<<"$(lib_run "$F2")"
echo "cli, 2x:" >&2;      read -r C2W C2C C2R <<<"$(cli_run "$F2")"

awk -v s1="$S1" -v s2="$S2" \
    -v l1w="$L1W" -v l1c="$L1C" -v l1r="$L1R" -v c1w="$C1W" -v c1c="$C1C" -v c1r="$C1R" \
    -v b1w="$B1W" -v b1c="$B1C" -v b1r="$B1R" \
    -v l2w="$L2W" -v l2c="$L2C" -v l2r="$L2R" -v c2w="$C2W" -v c2c="$C2C" -v c2r="$C2R" '
function row(name, size, w, c, r) {
  printf "%-22s %9.1f %8.3f %9.1f %8.3f %9.1f %9.1f\n", name, size / 1e6, w, size / 1e6 / w, c, size / 1e6 / c, r / 1024
}
function ok(b) { return b ? "MET" : "MISSED" }
BEGIN {
  printf "\n%-22s %9s %8s %9s %8s %9s %9s\n", "run", "file MB", "wall s", "MB/s", "cpu s", "MB/s cpu", "RSS MiB"
  row("vrecon library 1x", s1, l1w, l1c, l1r)
  row("vrecon ingest CLI 1x", s1, c1w, c1c, c1r)
  row("python baseline 1x", s1, b1w, b1c, b1r)
  row("vrecon library 2x", s2, l2w, l2c, l2r)
  row("vrecon ingest CLI 2x", s2, c2w, c2c, c2r)
  cli = s1 / 1e6 / c1w; base = s1 / 1e6 / b1w
  printf "\ntarget >= 100 MB/s end to end (CLI, wall): %.1f MB/s  %s\n", cli, ok(cli >= 100)
  printf "target >= 30x baseline (CLI vs baseline, wall): %.1fx  %s   (by CPU time: %.1fx)\n", cli / base, ok(cli / base >= 30), b1c / c1c
  rss = c1r > c2r ? c1r : c2r
  printf "target peak RSS <= 64 MB (CLI, 1x and 2x): %.1f / %.1f MiB  %s\n", c1r / 1024, c2r / 1024, ok(rss <= 64 * 1024)
}'
