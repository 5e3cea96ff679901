#!/usr/bin/env bash
# Wide-log check (issue "Hardened like a database", limits): logs with 20,000 and 70,000 process
# columns (ROWS rows each, default 100) are ingested, then dumped with
# `vrecon samples --format csv | wc -l`; wall time, CPU time and peak RSS of each step under
# /usr/bin/time -v. Generated files live in a temp dir that is removed at the end.
#
#   bash bench/wide_log.sh
#   WIDTHS="20000 70000 100000" ROWS=100 VRECON=build/src/cli/vrecon bash bench/wide_log.sh
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VRECON="${VRECON:-$SRC_DIR/build/src/cli/vrecon}"
WIDTHS="${WIDTHS:-20000 70000}"
ROWS="${ROWS:-100}"
WORK="${WORK:-${TMPDIR:-/tmp}}"
[ -x "$VRECON" ] || { echo "no vrecon at $VRECON (build first, or set VRECON)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

dir="$(mktemp -d "$WORK/vrecon-wide.XXXXXX")"
trap 'rm -rf "$dir"' EXIT

measure() {  # label, command...: one line of numbers from /usr/bin/time -v
  local label=$1 status=0
  shift
  /usr/bin/time -v -o "$dir/time.txt" "$@" || status=$?
  awk -F': ' -v label="$label" -v status="$status" '
    /Elapsed \(wall clock\)/ {wall=$2} /User time/ {user=$2} /System time/ {sys=$2}
    /Maximum resident set size/ {rss=$2}
    END {printf "  %-34s exit %s, wall %s, user %s s, sys %s s, peak RSS %.1f MiB\n", label, status, wall, user, sys, rss/1024}' \
    "$dir/time.txt"
}

for w in $WIDTHS; do
  log="$dir/wide-$w.csv"
  db="$dir/wide-$w.db"
  python3 "$SRC_DIR/bench/gen_stream_log.py" --out "$log" --rows "$ROWS" --columns "$w"
  echo "$((w + 3)) columns x $ROWS rows, $(($(stat -c %s "$log") / 1048576)) MB:"
  measure "vrecon ingest" sh -c '"$1" ingest --db "$2" --format csv "$3" > /dev/null' _ "$VRECON" "$db" "$log"
  # Counted by wc -l instead of written out: the output of 70,000 columns is about 1 GB.
  measure "vrecon samples --format csv | wc -l" sh -c '"$1" samples --db "$2" --format csv | wc -l > "$3"' \
    _ "$VRECON" "$db" "$dir/lines.txt"
  echo "  samples output: $(cat "$dir/lines.txt") lines, store $(($(stat -c %s "$db") / 1048576)) MB"
  rm -f "$log" "$db"
done
