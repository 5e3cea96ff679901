#!/usr/bin/env bash
# Several collectors into one PostgreSQL at once against one collector into SQLite (issue 16,
# "Benchmark"; numbers in docs/performance.md and docs/scaling.md), same machine, same run:
#   - SIMS govmomi simulators (tests/vcsim) of VMS_EACH VMs each (default 4 x 1,250), pinned to
#     core 1;
#   - baseline: one `vrecon collect --config --once` of simulator 1 into a SQLite file;
#   - then SIMS collectors at once, one per simulator, into one PostgreSQL database (a
#     throw-away cluster from Debian's pg_virtualenv, over its Unix socket).
# Each store gets a first round (5 minutes back) and three steady 5-minute rounds (STEADY_ROUNDS=N
# for N: this machine's noise, a third from round to round, wants more to compare builds); each
# round is stored and corrected, and PostgreSQL is vacuumed after it (untimed). Before a steady round
# every simulator's clock moves 300 s forward (its /advance-clock), so the round asks from its
# marks (less a minute for late data) to 5 minutes later and stores the 5 new minutes, as a
# round of `collect --every 5m` does. STEADY=reask instead moves every high-water mark back
# 300 s, as bench/run_fleet_bench.sh does and this bench did until stop 26: the simulator's
# clock has not moved, so each round asks again for about the minutes the last one stored; the
# samples' times fall between the stored ones, so they are stored again beside them and what a
# round reads back grows round after round. Kept to compare with the earlier steps' numbers.
# Per round: wall time (the slowest collector's, for PostgreSQL), the collectors' CPU (user+sys)
# and the PostgreSQL server's CPU in that round (its postmaster's own and reaped children's
# ticks). Store growth per VM per day = the steady rounds' growth x 288 rounds a day / VMs. The
# steady rounds' median ratio of per-collector cost to SQLite's CPU closes the table. Then two
# more steady rounds with the SIMS collectors one after another (each alone on the machine, the
# store shared): each collector's wall time against SQLite's.
#
# The machine has 2 cores, so the SIMS collectors, the server and the simulators share them:
# the wall time of the concurrent rounds includes waiting for a core, which collectors on their
# own machines would not. The per-collector cost (its own CPU plus its share of the server's)
# is what each collector would spend, and the wall time minus the CPU queueing is estimated in
# docs/performance.md, not measured.
#
# NAMES=same (the default) gives every simulator the same VM names, each VM then has a namesake
# in every other vCenter, which a round must read to keep them apart (src/engine/vm_view.h): the
# worst case. NAMES=distinct puts "siteN-" before simulator N's names, as separate sites' VMs
# mostly are. PG_STATS=1 loads pg_stat_statements into the cluster and prints, after the last
# concurrent round, the statements the server spent that round's time and WAL on (it adds a
# little to the server's CPU, so compare its timings only with other PG_STATS=1 runs).
#   [NAMES=same|distinct] [STEADY=advance|reask] [STEADY_ROUNDS=N] [PG_STATS=1] bash bench/pg_fleet_bench.sh [BUILD_DIR] [SIMS] [VMS_EACH]
set -euo pipefail
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build=$(realpath "${1:-$SRC_DIR/build}")
sims=${2:-4}
vms_each=${3:-1250}
vrecon=$build/src/cli/vrecon
vcsim=$build/tests/vcsim/vrecon_vcsim
[ -x "$vrecon" ] && [ -x "$vcsim" ] || {
  echo "build first: cmake --build $build (needs golang-go, golang-github-vmware-govmomi-dev)" >&2
  exit 1
}
pg_stats=${PG_STATS:-0}
if [ -z "${PGHOST:-}" ]; then
  if [ "$pg_stats" = 1 ]; then
    exec pg_virtualenv -o shared_preload_libraries=pg_stat_statements bash "$0" "$build" "$sims" "$vms_each"
  fi
  exec pg_virtualenv bash "$0" "$build" "$sims" "$vms_each"
fi
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 command (apt-get install sqlite3)" >&2; exit 1; }

work=$(mktemp -d)
cleanup() {
  for p in "$work"/pid.*; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
createdb vrecon_fleet
[ "$pg_stats" = 1 ] && psql -qc "CREATE EXTENSION pg_stat_statements" vrecon_fleet
PG="postgresql:///vrecon_fleet"
postmaster=$(head -1 "$(psql -Atc 'SHOW data_directory')/postmaster.pid")

export VRECON_BENCH_PW=bench-pw
names=${NAMES:-same}
case "$names" in same | distinct) ;; *) echo "NAMES is same or distinct, not $names" >&2; exit 2 ;; esac
steady=${STEADY:-advance}
case "$steady" in advance | reask) ;; *) echo "STEADY is advance or reask, not $steady" >&2; exit 2 ;; esac
steady_rounds=${STEADY_ROUNDS:-3}
[[ "$steady_rounds" =~ ^[1-9][0-9]*$ ]] || { echo "STEADY_ROUNDS is a count of rounds, not $steady_rounds" >&2; exit 2; }
last_round=$((steady_rounds + 1))
for i in $(seq 1 "$sims"); do
  prefix=()
  [ "$names" = distinct ] && prefix=(-name-prefix "site$i-")
  taskset -c 1 "$vcsim" -vms "$vms_each" "${prefix[@]}" -user bench -password bench-pw -info "$work/info.$i" \
    >"$work/vcsim.$i.log" 2>&1 &
  echo $! >"$work/pid.$i"
done
fleet_file() {  # index, db -> a fleet file for simulator `index`
  local url ca
  url=$(sed -n 's/^url=//p' "$work/info.$1")
  ca=$(sed -n 's/^ca_file=//p' "$work/info.$1")
  printf 'db = "%s"\nwindow = 300\nsince = "5m"\n' "$2"
  printf '[[vcenter]]\nname = "vc%s"\nurl = "%s"\nuser = "bench"\npassword_env = "VRECON_BENCH_PW"\nca = "%s"\nconcurrency = 2\n' \
    "$1" "$url" "$ca"
}
for i in $(seq 1 "$sims"); do
  for _ in $(seq 1 480); do [ -s "$work/info.$i" ] && break; sleep 0.5; done
  [ -s "$work/info.$i" ] || { echo "simulator $i did not start" >&2; cat "$work/vcsim.$i.log" >&2; exit 1; }
  fleet_file "$i" "$PG" >"$work/pg.$i.toml"
done
fleet_file 1 "$work/fleet.db" >"$work/sqlite.toml"
echo "simulators: $sims x $vms_each VMs, VM names $names across simulators, steady rounds: $steady"

# Clock ticks of the server: the postmaster's and every reaped backend's (stat fields 14-17).
server_ticks() { awk '{print $14 + $15 + $16 + $17}' "/proc/$postmaster/stat"; }
hz=$(getconf CLK_TCK)

# collector index config: one timed `collect --once`; "wall cpu rows windows" into $work/r.index
collector() {
  /usr/bin/time -f "%e %U %S" -o "$work/time.$1" taskset -c 0 "$vrecon" collect --config "$2" --once \
    --log-level warn --format json >"$work/out.$1" 2>"$work/err.$1" || { cat "$work/err.$1" >&2; return 1; }
  local wall user sys
  read -r wall user sys <"$work/time.$1"
  echo "$wall $(echo "$user + $sys" | bc) $(grep -o '"rows": [0-9]*' "$work/out.$1" | awk '{s += $2} END {print s + 0}') \
$(grep -o '"windows_stored": [0-9]*' "$work/out.$1" | awk '{s += $2} END {print s + 0}')" >"$work/r.$1"
}

sqlite_size() { sqlite3 "$work/fleet.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null; stat -c %s "$work/fleet.db"; }
pg_size() { psql -Atc "CHECKPOINT" vrecon_fleet >/dev/null; psql -Atc "SELECT pg_database_size('vrecon_fleet')" vrecon_fleet; }
# What autovacuum does over a day: the rows a round updates (marks, file rows, stored
# corrections) leave old versions whose space the next round reuses once vacuumed. Without it
# three quick rounds would count every dead version as growth. And it analyzes: a month's sample
# partition is new in the first round, and until autovacuum first analyzes it (a minute's nap
# at most, then again at each 10% of growth) the planner does not know how few rows a series
# has, and reads a round's samples through the block-id index instead, about 30x slower. Rounds
# minutes apart meet that in their first minute of a month only; rounds seconds apart met it at
# random until stop 26, which analyzes after each round.
pg_vacuum() { psql -qc "VACUUM ANALYZE" vrecon_fleet; }
move_marks_back() { sqlite3 "$work/fleet.db" "UPDATE vsphere_vm_mark SET last_end_ns = last_end_ns - 300000000000;"; }
move_pg_marks_back() { psql -qc "UPDATE vsphere_vm_mark SET last_end_ns = last_end_ns - 300000000000" vrecon_fleet; }
# The simulators' admin endpoint (tests/vcsim), over bash's /dev/tcp: no HTTP client needed.
advance_clock() {  # index
  local admin reply
  admin=$(sed -n 's/^admin=//p' "$work/info.$1")
  exec 3<>"/dev/tcp/${admin%:*}/${admin##*:}"
  printf 'POST /advance-clock?s=300 HTTP/1.0\r\nContent-Length: 0\r\n\r\n' >&3
  reply=$(cat <&3)
  exec 3<&-
  [[ "$reply" == *" 200 "* ]] || { echo "simulator $1 did not move its clock: $reply" >&2; exit 1; }
}
next_steady_round() {
  if [ "$steady" = reask ]; then
    move_marks_back
    move_pg_marks_back
  else
    for i in $(seq 1 "$sims"); do advance_clock "$i"; done
  fi
}

# What the server spent the last concurrent round on, kept before the vacuum and later rounds add to it.
statement_stats() {
  echo
  echo "Round $last_round's statements by the server's time (pg_stat_statements; ms, WAL in KiB):"
  psql -P pager=off -c "SELECT calls, round(total_exec_time::numeric, 1) AS exec_ms,
      round(total_plan_time::numeric, 1) AS plan_ms, rows, shared_blks_hit + shared_blks_read AS blocks,
      shared_blks_dirtied AS dirtied, round(wal_bytes / 1024.0, 0) AS wal_kib,
      left(regexp_replace(query, '\s+', ' ', 'g'), 90) AS query
    FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 20" vrecon_fleet
  psql -P pager=off -c "SELECT sum(calls) AS statements, round(sum(total_exec_time)::numeric, 0) AS exec_ms,
      round(sum(total_plan_time)::numeric, 0) AS plan_ms, round(sum(wal_bytes) / 1024.0, 0) AS wal_kib
    FROM pg_stat_statements" vrecon_fleet
}

printf '| round | SQLite, 1 collector: wall s | CPU s | PostgreSQL, %s at once: wall s (slowest) | CPU s per collector (mean) | server CPU s | per-collector cost s | samples per collector | windows per collector |\n' "$sims"
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
ratios=()
for round in $(seq 1 "$last_round"); do
  if [ "$round" -gt 1 ]; then next_steady_round; fi
  [ "$round" = 2 ] && { s_before=$(sqlite_size); p_before=$(pg_size); }
  collector s "$work/sqlite.toml"
  read -r s_wall s_cpu _ _ <"$work/r.s"
  [ "$pg_stats" = 1 ] && [ "$round" = "$last_round" ] && psql -qAtc "SELECT pg_stat_statements_reset()" vrecon_fleet >/dev/null
  t0=$(server_ticks)
  pids=()
  for i in $(seq 1 "$sims"); do collector "$i" "$work/pg.$i.toml" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p"; done
  sleep 0.2  # the backends of the last collectors to leave are reaped
  server=$(echo "scale=2; ($(server_ticks) - $t0) / $hz" | bc)
  stats=$(cat "$work"/r.[0-9]* | awk -v n="$sims" '{ if ($1 > w) w = $1; c += $2; r += $3; s += $4 }
    END { printf "%.2f %.2f %d %d", w, c / n, r / n, s / n }')
  read -r p_wall p_cpu p_rows p_windows <<<"$stats"
  cost=$(echo "scale=2; $p_cpu + $server / $sims" | bc)
  [ "$round" -gt 1 ] && ratios+=("$(echo "scale=3; $cost / $s_cpu" | bc)")
  if [ "$pg_stats" = 1 ] && [ "$round" = "$last_round" ]; then statement_stats >"$work/stats"; fi
  pg_vacuum
  printf '| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %s |\n' "$round" "$s_wall" "$s_cpu" "$p_wall" "$p_cpu" \
    "$server" "$cost" "$p_rows" "$p_windows"
done
echo
echo "steady rounds, per-collector cost / SQLite CPU: $(printf '%s\n' "${ratios[@]}" | sort -n | tr '\n' ' ')(median" \
  "$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')x)"
s_after=$(sqlite_size)
p_after=$(pg_size)
if [ "$pg_stats" = 1 ]; then cat "$work/stats"; fi

# The same steady round with each collector given the machine in turn: what a collector on its own
# machine, writing a server with cores to spare, would wait for. The store holds every
# collector's VMs, so what grows with the shared store (its indexes, the series and inventory it
# reads) still counts; only the queueing for the two cores does not.
echo
printf '| round | SQLite, 1 collector: wall s | CPU s | PostgreSQL, %s one at a time: wall s (each) | CPU s (each) | server CPU s (each) | wall vs SQLite |\n' "$sims"
printf '|---|---:|---:|---|---|---|---:|\n'
for round in 5 6; do
  next_steady_round
  collector s "$work/sqlite.toml"
  read -r s_wall s_cpu _ _ <"$work/r.s"
  walls=() cpus=() servers=()
  for i in $(seq 1 "$sims"); do
    t0=$(server_ticks)
    collector "$i" "$work/pg.$i.toml"
    sleep 0.2
    read -r wall cpu _ _ <"$work/r.$i"
    walls+=("$wall") cpus+=("$cpu") servers+=("$(echo "scale=2; ($(server_ticks) - $t0) / $hz" | bc)")
  done
  pg_vacuum
  worst=$(printf '%s\n' "${walls[@]}" | sort -n | tail -1)
  printf '| %s | %.2f | %.2f | %s | %s | %s | %.2fx (slowest) |\n' "$round" "$s_wall" "$s_cpu" "${walls[*]}" "${cpus[*]}" \
    "${servers[*]}" "$(echo "scale=3; $worst / $s_wall" | bc)"
done
vms=$((sims * vms_each))
echo
echo "store growth per VM per day: SQLite $(echo "scale=1; ($s_after - $s_before) / $steady_rounds * 288 / $vms_each / 1024" | bc) KiB" \
  "($vms_each VMs), PostgreSQL $(echo "scale=1; ($p_after - $p_before) / $steady_rounds * 288 / $vms / 1024" | bc) KiB ($vms VMs)"
echo "VMs stored: SQLite $(sqlite3 "$work/fleet.db" 'SELECT count(*) FROM vsphere_vm')," \
  "PostgreSQL $(psql -Atc 'SELECT count(*) FROM vsphere_vm' vrecon_fleet)"
