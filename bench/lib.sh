# Shared by the bench scripts that compare SQLite with PostgreSQL (source it).

# best COMMAND... -> the shortest wall time of $REPEAT runs, in seconds; a failing command's
# output goes to stderr and ends the script.
best() {
  local b=""
  for ((i = 1; i <= REPEAT; i++)); do
    local t0 t1 w
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { "$@" >&2 || true; exit 1; }
    t1=$(date +%s.%N)
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b - a}')
    if [ -z "$b" ] || awk -v a="$w" -v b="$b" 'BEGIN{exit !(a < b)}'; then b="$w"; fi
  done
  echo "$b"
}

# Pins the throw-away cluster's postmaster (and so every connection it forks) to core $1.
pin_postgres() {
  local postmaster
  postmaster=$(head -1 "$(psql -Atc 'SHOW data_directory')/postmaster.pid")
  taskset -pc "$1" "$postmaster" >/dev/null
}

# A markdown row per "name:sqlite_s:postgres_s" argument, with the ratio.
ratio_table() {
  printf '| step | SQLite s | PostgreSQL s | ratio |\n|---|---:|---:|---:|\n'
  local row name s p
  for row in "$@"; do
    IFS=: read -r name s p <<<"$row"
    printf '| %s | %s | %s | %s |\n' "$name" "$s" "$p" "$(awk -v a="$s" -v b="$p" 'BEGIN{printf "%.2fx", b / a}')"
  done
}
