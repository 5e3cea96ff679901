#!/usr/bin/env bash
# One realtime collection round of 1,000 simulated VMs x 6 CPU counters, vrecon against a
# govmomi-based collector (govmomi's performance package, as Telegraf uses), on the same
# simulator in the same run, each pinned to one core. Prints wall time, client CPU time,
# requests, bytes and peak RSS.
#   bench/run_vsphere_bench.sh [BUILD_DIR] [VMS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
vms=${2:-1000}
vrecon=$build/src/cli/vrecon
vcsim=$build/tests/vcsim/vrecon_vcsim
[ -x "$vrecon" ] && [ -x "$vcsim" ] || { echo "build first: cmake --build $build (needs golang-go, golang-github-vmware-govmomi-dev)" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(cat $work/pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

GO111MODULE=off GOPATH=/usr/share/gocode:$work/gopath GOCACHE=$(realpath "$build")/tests/vcsim/gocache \
  go build -o "$work/govmomi_collector" bench/govmomi_collector/main.go

# The simulator gets core 1, the clients core 0.
taskset -c 1 "$vcsim" -vms "$vms" -user bench -password bench-pw -info "$work/info" >"$work/vcsim.log" 2>&1 &
echo $! >"$work/pid"
for _ in $(seq 1 120); do [ -s "$work/info" ] && break; sleep 0.5; done
url=$(sed -n 's/^url=//p' "$work/info"); ca=$(sed -n 's/^ca_file=//p' "$work/info")

measure() {  # label, command...: prints label, wall, user+sys, max RSS
  local label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; return 1; }
  read -r wall user sys rss <"$work/time"
  printf '%-34s wall %6.2f s   cpu %6.2f s   peak RSS %6.1f MiB\n' "$label" "$wall" "$(echo "$user + $sys" | bc)" \
    "$(echo "scale=1; $rss / 1024" | bc)"
}

export VRECON_VSPHERE_PASSWORD=bench-pw
echo "simulator: $vms VMs at $url"
for round in 1 2 3; do
  rm -f "$work/fleet.db"*
  measure "vrecon collect (round $round)" taskset -c 0 "$vrecon" collect vsphere --url "$url" --user bench --ca "$ca" \
    --db "$work/fleet.db" --since 5m --concurrency 1 --format json
  echo "    $(cat "$work/out")"
done
for round in 1 2 3; do
  measure "govmomi aggregate only (round $round)" taskset -c 0 "$work/govmomi_collector" -url "$url" -user bench \
    -ca "$ca" -max-sample 16 -max-metrics 64 -per-vcpu=false
  echo "    $(cat "$work/out")"
done
measure "govmomi aggregate + vCPUs" taskset -c 0 "$work/govmomi_collector" -url "$url" -user bench -ca "$ca" \
  -max-sample 16 -max-metrics 64
echo "    $(cat "$work/out")"
