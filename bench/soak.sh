#!/usr/bin/env bash
# A soak of the fleet collector (issue 38 part 3; docs/reliability.md "Soak"): load held for a long
# time, and nothing that should stay flat grows. A script, not a timed test.
#
#   bench/soak.sh [--rounds N] [--kills K] [--build DIR]
#
# Runs `vrecon collect --config F --every 1s` against two local vCenter simulators (4 VMs each,
# the test build's tests/vcsim) and a drop folder that gets a new guest log every 5 rounds, with
# retention set (retain_samples 1h, which keeps the day: the store is bounded by a day's data).
# It kills the collector with SIGKILL at K random rounds (default 5) and starts it again. After
# N rounds (default 2,000; CI runs --rounds 50 --kills 2) it stops the collector and checks:
#   - peak RSS per 100 rounds is flat: the last 500 rounds' peak within 5% of rounds 500-1,000
#     (checked from 1,500 rounds on; shorter runs print it);
#   - open file descriptors are flat: the fewest of every 10 samples (between rounds) the same,
#     give or take 1, after round 20;
#   - every vSphere sample is stored once, and each VM's 20 s samples have no gap since its first;
#   - every dropped file was ingested once, with all its rows;
#   - `vrecon status` exited 0 at every check (every 10 rounds), and PRAGMA integrity_check is ok.
# Prints the figures per 100 rounds (peak RSS, descriptors, the store file and its WAL) and exits
# 1 if a check fails. The store's growth is printed, not checked: retention keeps the UTC day
# (retain_samples cuts at the start of a day), so within a soak of hours it removes nothing; its
# tests are in tests/e2e/retention_test.cc. Needs a Release build with the simulator
# (scripts/test.sh makes one in build/).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=2000 kills=5 build=build
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --kills) kills=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "soak.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
scripts/install-deps.sh python3  # the checks at the end
case $build in /*) ;; *) build=$PWD/$build ;; esac
vrecon=$build/src/cli/vrecon
vcsim=$build/tests/vcsim/vrecon_vcsim
for f in "$vrecon" "$vcsim"; do
  [ -x "$f" ] || { echo "soak.sh: $f missing: build first (bash scripts/test.sh)" >&2; exit 2; }
done

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${collector:-}" ] && kill -9 "$collector" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Two simulators, their VMs named apart.
start_vcsim() {
  local name=$1
  "$vcsim" -vms=4 -user=soak -password=soak-pw -name-prefix="$name-" -info="$work/$name.info" \
    >"$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 200); do [ -f "$work/$name.info" ] && return 0; sleep 0.05; done
  echo "soak.sh: the simulator $name did not start: $(cat "$work/$name.log")" >&2
  exit 1
}
start_vcsim a
start_vcsim b
info() { sed -n "s/^$2=//p" "$work/$1.info"; }

mkdir -p "$work/drop"
db=$work/soak.db
cat >"$work/fleet.toml" <<EOF
db = "$db"
since = "10m"
settle = "1s"
retain_samples = "1h"
retain_corrections = "1h"
[[vcenter]]
name = "a"
url = "$(info a url)"
ca = "$(info a ca_file)"
user = "soak"
password_env = "VRECON_SOAK_PW"
[[vcenter]]
name = "b"
url = "$(info b url)"
ca = "$(info b ca_file)"
user = "soak"
password_env = "VRECON_SOAK_PW"
[[drop_folder]]
path = "$work/drop"
EOF
export VRECON_SOAK_PW=soak-pw

log=$work/collector.log
collector=""
start_collector() {
  "$vrecon" collect --config "$work/fleet.toml" --every 1s --log-level info >>"$work/rounds.out" 2>>"$log" &
  collector=$!
}
rounds_done() { grep -c 'round finished' "$log" 2>/dev/null || true; }

# A guest log of 20 rows at 15 s ending now, of a machine of its own (SOAK-G<n>): files do not
# overlap, so every guest sample is stored once.
drop_guest_log() {
  local n=$1 file=$work/drop/guest-$1.csv
  # Written outside the folder and moved in whole: the collector never sees half of it.
  python3 - "$work/guest.tmp" "$n" <<'PY'
import sys, time, datetime
path, n = sys.argv[1], int(sys.argv[2])
end = int(time.time()) // 15 * 15
host = '\\\\SOAK-G' + str(n)
rows = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","' + host + '\\Processor(_Total)\\% Processor Time","' +
        host + '\\Process(app)\\% Processor Time"']
for i in range(20):
    t = datetime.datetime.utcfromtimestamp(end - (19 - i) * 15)
    rows.append('"%s","%.1f","%.1f"' % (t.strftime('%m/%d/%Y %H:%M:%S.000'), 20 + (i * 7 + n) % 50, 10 + (i * 3 + n) % 30))
open(path, 'w').write('\r\n'.join(rows) + '\r\n')
PY
  touch -d '10 seconds ago' "$work/guest.tmp"
  mv "$work/guest.tmp" "$file"
}

# The rounds at which the collector is killed, at random.
mapfile -t kill_at < <(python3 -c "import random, sys
r = random.Random(38)
at = sorted(r.sample(range(10, $rounds), min($kills, max($rounds - 10, 0)))) if $rounds > 10 else []
sys.stdout.write(''.join(f'{a}\n' for a in at))")
echo "soak: $rounds rounds, kills at rounds ${kill_at[*]:-none}; work dir $work" >&2

samples=$work/samples.tsv  # round rss_kb fds db_bytes wal_bytes
: >"$samples"
status_failures=0 dropped=0 next_kill=0 last=0 start=$SECONDS
start_collector
while :; do
  done_n=$(rounds_done)
  if [ "$done_n" -ne "$last" ]; then
    last=$done_n
    if [ -d /proc/$collector ]; then
      rss=$(sed -n 's/^VmRSS:\s*\([0-9]*\).*/\1/p' /proc/$collector/status 2>/dev/null || echo 0)
      fds=$(ls /proc/$collector/fd 2>/dev/null | wc -l)
      printf '%s\t%s\t%s\t%s\t%s\n' "$done_n" "${rss:-0}" "$fds" "$(stat -c %s "$db" 2>/dev/null || echo 0)" \
        "$(stat -c %s "$db-wal" 2>/dev/null || echo 0)" >>"$samples"
    fi
    if [ $((done_n % 5)) -eq 0 ] && [ ! -f "$work/drop/guest-$done_n.csv" ]; then
      drop_guest_log "$done_n"
      dropped=$((dropped + 1))
    fi
    if [ $((done_n % 10)) -eq 0 ]; then
      "$vrecon" status --db "$db" >/dev/null 2>>"$work/status.err" || status_failures=$((status_failures + 1))
    fi
    if [ $next_kill -lt ${#kill_at[@]} ] && [ "$done_n" -ge "${kill_at[$next_kill]}" ]; then
      kill -9 "$collector" 2>/dev/null || true
      wait "$collector" 2>/dev/null || true
      echo "soak: killed the collector (SIGKILL) after round $done_n, starting it again" >&2
      next_kill=$((next_kill + 1))
      start_collector
    fi
    [ "$done_n" -ge "$rounds" ] && break
    if [ -t 2 ]; then printf '\rsoak: round %d/%d' "$done_n" "$rounds" >&2; fi
  fi
  if ! kill -0 "$collector" 2>/dev/null; then
    echo "soak: the collector exited by itself after round $done_n:" >&2
    tail -5 "$log" >&2
    exit 1
  fi
  sleep 0.2
done
[ -t 2 ] && printf '\r\033[K' >&2
kill -TERM "$collector" 2>/dev/null || true
wait "$collector" 2>/dev/null || true
collector=""
elapsed=$((SECONDS - start))
# The last round's drop files: one more round reads any left (settle).
"$vrecon" collect --config "$work/fleet.toml" --once >/dev/null 2>>"$log" || true

"$vrecon" samples --db "$db" --source vsphere --format csv >"$work/vsphere.csv"
"$vrecon" samples --db "$db" --source guest --format csv >"$work/guest.csv"
python3 - "$samples" "$work/vsphere.csv" "$work/guest.csv" "$db" "$rounds" "$dropped" "$status_failures" \
  "$elapsed" "${#kill_at[@]}" <<'PY'
import csv, collections, sqlite3, sys
samples, vs_csv, guest_csv, db, rounds, dropped, status_failures, elapsed, kills = sys.argv[1:]
rounds, dropped, status_failures, kills = int(rounds), int(dropped), int(status_failures), int(kills)
rows = [tuple(map(int, l.split('\t'))) for l in open(samples) if l.strip()]
failed = []

def check(ok, what):
    print(('  ok    ' if ok else '  FAIL  ') + what)
    if not ok:
        failed.append(what)

print(f'soak: {rounds} rounds in {elapsed} s, the collector killed {kills} times')
print('rounds      peak RSS (MB)  fds (min-max)  store file (MB)  WAL (MB)')
buckets = collections.OrderedDict()
for r, rss, fds, size, wal in rows:
    buckets.setdefault((r - 1) // 100, []).append((rss, fds, size, wal))
for b, v in buckets.items():
    print(f'{b*100+1:>5}-{b*100+100:<5} {max(x[0] for x in v)/1024:>13.1f}  {min(x[1] for x in v):>5}-{max(x[1] for x in v):<7}'
          f' {v[-1][2]/1e6:>15.2f} {v[-1][3]/1e6:>9.2f}')
if len(rows) > 1:
    print(f'store file: {(rows[-1][3] - rows[0][3]) / max(rows[-1][0] - rows[0][0], 1) / 1e3:.1f} kB per round')

def peak(lo, hi):
    v = [rss for r, rss, *_ in rows if lo < r <= hi]
    return max(v) if v else 0
if rounds >= 1500:
    ref, last = peak(500, 1000), peak(rounds - 500, rounds)
    check(last <= ref * 1.05, f'peak RSS flat: last 500 rounds {last/1024:.1f} MB, rounds 500-1000 {ref/1024:.1f} MB')
else:
    print(f'  --    peak RSS {peak(0, rounds)/1024:.1f} MB (flatness is checked from 1,500 rounds on)')
# After a restart the first rounds open their files: compare from round 20 on.
# A sample taken while a round runs also counts its sources' connections: the baseline is the
# fewest of every 10 samples, and it must not move.
fds = [f for r, _, f, *_ in rows if r > 20]
if fds:
    base = [min(fds[i:i + 10]) for i in range(0, len(fds), 10)]
    check(max(base) - min(base) <= 1, f'open file descriptors flat (baseline {min(base)} to {max(base)} after round 20; '
          f'{max(fds)} at most while a round runs)')

seen = collections.Counter()
times = collections.defaultdict(list)
with open(vs_csv) as f:
    for row in csv.DictReader(f):
        key = (row['machine'], row['counter'], row['instance'])
        seen[key + (row['end'],)] += 1
        times[key].append(row['end'])
dups = sum(1 for n in seen.values() if n > 1)
check(dups == 0, f'every vSphere sample stored once ({len(seen)} samples, {dups} twice)')
import datetime
def t(s): return datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()
gaps = 0
for key, ts in times.items():
    ts = sorted(set(t(x) for x in ts))
    gaps += sum(1 for a, b in zip(ts, ts[1:]) if b - a > 20.5)
check(gaps == 0, f'no gap in any VM counter\'s 20 s samples ({len(times)} series)')
guest = collections.Counter()
with open(guest_csv) as f:
    for row in csv.DictReader(f):
        guest[(row['machine'], row['counter'], row['instance'], row['end'])] += 1
con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
files = con.execute("SELECT count(*), count(DISTINCT path), sum(rows) FROM source_file WHERE path LIKE '%guest-%.csv'").fetchone()
check(files[0] == dropped and files[1] == dropped, f'every dropped file ingested once ({dropped} dropped, {files[0]} stored)')
check(all(n == 1 for n in guest.values()), f'every guest sample stored once ({len(guest)} samples)')
check(status_failures == 0, f'vrecon status exit 0 at every check ({status_failures} failures)')
ic = con.execute('PRAGMA integrity_check').fetchone()[0]
check(ic == 'ok', f'integrity_check: {ic}')
sys.exit(1 if failed else 0)
PY
