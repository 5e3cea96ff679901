#!/bin/sh
# CPU cost of `vrecon collect procfs` per sample with ~N processes (default 300 in total):
# starts sleepers until /proc holds N processes, takes SAMPLES samples at a short interval into a
# temporary store, and prints CPU seconds per sample and the share of one CPU at 15 s.
# Usage: bench/procfs_sampler_bench.sh [BUILD_DIR] [N] [SAMPLES]
set -eu
BUILD=${1:-build}
N=${2:-300}
SAMPLES=${3:-40}
VRECON=$BUILD/src/cli/vrecon
TMP=$(mktemp -d)
PIDS=""
cleanup() { for p in $PIDS; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT INT TERM
have=$(ls -d /proc/[0-9]* | wc -l)
while [ "$have" -lt "$N" ]; do sleep 600 & PIDS="$PIDS $!"; have=$((have + 1)); done
sleep 0.5
echo "processes in /proc: $(ls -d /proc/[0-9]* | wc -l)"
for mode in db csv; do
  if [ $mode = db ]; then out="--db $TMP/b.db"; else out="--out $TMP/b.csv"; fi
  # getrusage of the child: user + system CPU seconds.
  cpu=$(python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)' $VRECON collect procfs $out --count "$SAMPLES" --interval 0.2)
  python3 -c "
cpu=$cpu; n=$SAMPLES + 1
per=cpu/n
print(f'$mode: {cpu:.3f} CPU s for {n} samples = {per*1000:.2f} ms per sample = {per/15*100:.3f}% of one CPU at a 15 s interval')"
done
