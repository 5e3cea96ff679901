#!/usr/bin/env bash
# Large-log streaming check (issue "Hardened like a database", limits): generates a Perfmon CSV
# log of SIZE_MB megabytes (default 5 GB) without holding it, ingests it with `vrecon ingest`
# under /usr/bin/time -v and prints wall time, CPU time and peak RSS; then deletes the log and
# the store. Run it at two sizes to see that peak RSS does not grow with the file:
#
#   SIZE_MB=500 bash bench/stream_limits.sh
#   bash bench/stream_limits.sh                       # 5,120 MB; needs ~5 GB + the store free
#   VRECON=build/src/cli/vrecon WORK=/var/tmp COLUMNS=20 bash bench/stream_limits.sh
#
# Not part of the test suite: a 5 GB run takes minutes.
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VRECON="${VRECON:-$SRC_DIR/build/src/cli/vrecon}"
SIZE_MB="${SIZE_MB:-5120}"
COLUMNS="${COLUMNS:-20}"
WORK="${WORK:-${TMPDIR:-/tmp}}"
[ -x "$VRECON" ] || { echo "no vrecon at $VRECON (build first, or set VRECON)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

# The log plus its store must fit: these short values make a store ~1.1x the log (540 MB for 500).
need_mb=$((SIZE_MB * 23 / 10 + 512))
avail_mb=$(df -Pm "$WORK" | awk 'NR==2 {print $4}')
if [ "$avail_mb" -lt "$need_mb" ]; then
  echo "$WORK has ${avail_mb} MB free; a ${SIZE_MB} MB log and its store need about ${need_mb} MB" >&2
  exit 2
fi

dir="$(mktemp -d "$WORK/vrecon-stream.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
log="$dir/big.csv"
python3 "$SRC_DIR/bench/gen_stream_log.py" --out "$log" --size-mb "$SIZE_MB" --columns "$COLUMNS"
bytes=$(stat -c %s "$log")

status=0
/usr/bin/time -v -o "$dir/time.txt" "$VRECON" ingest --db "$dir/s.db" --format csv "$log" >"$dir/out.csv" || status=$?
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt")
user=$(awk -F': ' '/User time/ {print $2}' "$dir/time.txt")
sys=$(awk -F': ' '/System time/ {print $2}' "$dir/time.txt")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time.txt")
store=$(stat -c %s "$dir/s.db")
rows=$(awk -F, 'NR==2 {print $5}' "$dir/out.csv")
printf 'log %.1f MB (%s columns), exit %s, rows stored %s, wall %s, user %s s, sys %s s, peak RSS %.1f MiB, store %.1f MB\n' \
  "$(echo "$bytes / 1048576" | bc -l)" "$((COLUMNS + 3))" "$status" "$rows" "$wall" "$user" "$sys" \
  "$(echo "$rss_kb / 1024" | bc -l)" "$(echo "$store / 1048576" | bc -l)"
