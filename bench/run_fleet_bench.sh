#!/usr/bin/env bash
# The fleet collector's round at 5,000 VMs: SIMS simulators x VMS_EACH VMs (default 5 x 1,000),
# 6 CPU counters as the VM aggregate and per vCPU, through `vrecon collect --config --once`,
# stored and then corrected (StoreCorrections for the new windows). The collector is pinned to
# core 0, the simulators to core 1. Round 1 is a first round (5 minutes of history); rounds 2..4
# are steady-state 5-minute rounds: before each, every high-water mark is moved back so the
# round asks for the 5 minutes a collector running `--every 5m` would. Then govmomi's collector
# (bench/govmomi_collector, as Telegraf uses) collects the same simulators in the same run.
# Prints wall time, client CPU (user+sys) and peak RSS per round, and store growth per VM per
# day (the steady-state rounds' growth x 288 rounds a day / VMs).
#   bench/run_fleet_bench.sh [BUILD_DIR] [SIMS] [VMS_EACH]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
sims=${2:-5}
vms_each=${3:-1000}
vrecon=$(realpath "$build/src/cli/vrecon")
vcsim=$build/tests/vcsim/vrecon_vcsim
[ -x "$vrecon" ] && [ -x "$vcsim" ] || { echo "build first: cmake --build $build (needs golang-go, golang-github-vmware-govmomi-dev)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 command (apt-get install sqlite3)" >&2; exit 1; }
work=$(mktemp -d)
cleanup() { for p in "$work"/pid.*; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT

GO111MODULE=off GOPATH=/usr/share/gocode:$work/gopath GOCACHE=$(realpath "$build")/tests/vcsim/gocache \
  go build -o "$work/govmomi_collector" bench/govmomi_collector/main.go

export VRECON_BENCH_PW=bench-pw
{
  echo "db = \"$work/fleet.db\""
  echo 'window = 300'
  echo 'since = "5m"'
} >"$work/fleet.toml"
for i in $(seq 1 "$sims"); do
  taskset -c 1 "$vcsim" -vms "$vms_each" -user bench -password bench-pw -info "$work/info.$i" >"$work/vcsim.$i.log" 2>&1 &
  echo $! >"$work/pid.$i"
done
for i in $(seq 1 "$sims"); do
  for _ in $(seq 1 240); do [ -s "$work/info.$i" ] && break; sleep 0.5; done
  [ -s "$work/info.$i" ] || { echo "simulator $i did not start" >&2; cat "$work/vcsim.$i.log" >&2; exit 1; }
  url=$(sed -n 's/^url=//p' "$work/info.$i"); ca=$(sed -n 's/^ca_file=//p' "$work/info.$i")
  printf '[[vcenter]]\nname = "vc%s"\nurl = "%s"\nuser = "bench"\npassword_env = "VRECON_BENCH_PW"\nca = "%s"\nconcurrency = 2\n' \
    "$i" "$url" "$ca" >>"$work/fleet.toml"
done
echo "simulators: $sims x $vms_each VMs"

measure() {  # label, command...: prints label, wall, user+sys, max RSS
  local label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; return 1; }
  read -r wall user sys rss <"$work/time"
  printf '%-40s wall %6.2f s   cpu %6.2f s   peak RSS %6.1f MiB\n' "$label" "$wall" "$(echo "$user + $sys" | bc)" \
    "$(echo "scale=1; $rss / 1024" | bc)"
}
size() { sqlite3 "$work/fleet.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null; stat -c %s "$work/fleet.db"; }

measure "vrecon round 1 (first, 5 min back)" taskset -c 0 "$vrecon" collect --config "$work/fleet.toml" --once --log-level warn --format json
grep -o '"rows": [0-9]*' "$work/out" | awk '{s += $2} END {printf "    samples stored: %d", s}'
grep -o '"windows_stored": [0-9]*' "$work/out" | awk '{print ", correction windows stored: " $2}'
before=$(size)
for round in 2 3 4; do
  # 5 minutes later: every mark 300 s further back, so 15 new 20 s samples per series.
  sqlite3 "$work/fleet.db" "UPDATE vsphere_vm_mark SET last_end_ns = last_end_ns - 300000000000;"
  measure "vrecon round $round (steady, 5 min)" taskset -c 0 "$vrecon" collect --config "$work/fleet.toml" --once --log-level warn --format json
  grep -o '"rows": [0-9]*' "$work/out" | awk '{s += $2} END {printf "    samples stored: %d", s}'
  grep -o '"windows_stored": [0-9]*' "$work/out" | awk '{print ", correction windows stored: " $2}'
done
after=$(size)
vms=$((sims * vms_each))
echo "store: $(echo "scale=0; ($after - $before) / 3" | bc) bytes per 5-minute round; $(echo "scale=1; ($after - $before) / 3 * 288 / $vms / 1024" | bc) KiB per VM per day"

total_wall=0; total_cpu=0
for i in $(seq 1 "$sims"); do
  url=$(sed -n 's/^url=//p' "$work/info.$i"); ca=$(sed -n 's/^ca_file=//p' "$work/info.$i")
  /usr/bin/time -f "%e %U %S" -o "$work/time" taskset -c 0 "$work/govmomi_collector" -url "$url" -user bench \
    -password bench-pw -ca "$ca" -max-sample 16 -max-metrics 64 >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r wall user sys <"$work/time"
  total_wall=$(echo "$total_wall + $wall" | bc); total_cpu=$(echo "$total_cpu + $user + $sys" | bc)
done
printf '%-40s wall %6.2f s   cpu %6.2f s   (collection only, nothing stored; %s simulators one after another)\n' \
  "govmomi aggregate + vCPUs" "$total_wall" "$total_cpu" "$sims"
