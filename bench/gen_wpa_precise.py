#!/usr/bin/env python3
"""Writes a synthetic WPA "CPU Usage (Precise)" CSV export for the WPA reader benchmark (not a test
fixture): CPUS CPUs running PROCS processes of 1-8 threads for SECONDS seconds, ROWS rows in all
(one per switch-in, Idle's runs included), each CPU's runs back to back or with an Idle run
between. Rows are in a view's order, not in time order: grouped by process (most CPU first), then
by thread, then by run length, longest first. Columns and cell formats as a WPA 10 export writes
them: times in seconds with nine decimals, Ready and Waits in microseconds with thousands
separators (quoted when they have one), UTF-8 with a byte-order mark, CRLF.

  gen_wpa_precise.py OUT ROWS [CPUS=8] [SECONDS=60] [PROCS=200]
"""
import random
import sys
from collections import defaultdict

out, rows = sys.argv[1], int(sys.argv[2])
cpus = int(sys.argv[3]) if len(sys.argv) > 3 else 8
seconds = int(sys.argv[4]) if len(sys.argv) > 4 else 60
nprocs = int(sys.argv[5]) if len(sys.argv) > 5 else 200
rng = random.Random(42)

procs = []
for i in range(1, nprocs + 1):
    pid = 1000 + 4 * i
    procs.append(("proc%d.exe" % i, pid, [pid * 10 + k for k in range(1, rng.randint(1, 8) + 1)]))
# Each CPU draws from its own slice of the threads: a thread is never on two CPUs at once.
threads = [(name, pid, tid) for name, pid, tids in procs for tid in tids]
slices = [threads[c::cpus] for c in range(cpus)]
per_cpu = rows // cpus
span_us = seconds * 1_000_000
step = span_us // per_cpu


def sec(us):
    return "%d.%06d000" % (us // 1_000_000, us % 1_000_000)


def micros(us):
    s = "{:,}.000".format(us)
    return '"%s"' % s if "," in s else s


groups = defaultdict(list)  # process -> (tid, duration, line)
usage = defaultdict(int)
for c in range(cpus):
    t = 0
    last_out = {}
    for _ in range(per_cpu):
        dur = rng.randint(1, 2 * step)
        if rng.random() < 0.3:
            proc, tid, ready = ("Idle", 0), 0, ""
        else:
            name, pid, tid = rng.choice(slices[c])
            proc = (name, pid)
            waited = t - last_out.get(tid, 0)
            ready = micros(rng.randint(0, min(waited, 5000))) if rng.random() < 0.7 else ""
        prev = last_out.get(tid)
        line = "%s (%d),%d,1,%d,%s,%s,%s,%s,,%s,%s,%s,%s" % (
            proc[0], proc[1], tid, c, sec(t), sec(t + dur), sec(prev) if prev is not None else "", ready,
            "%d.%03d" % (dur // 1000, dur % 1000), "System (4)" if ready else "", "12" if ready else "",
            "Waiting")
        groups[proc].append((tid, -dur, line))
        usage[proc] += dur
        last_out[tid] = t + dur
        t += dur
with open(out, "w", encoding="utf-8-sig", newline="") as f:
    f.write("New Process,New Thread Id,Count,Cpu,Switch-In Time (s),Next Switch-Out Time (s),Last Switch-Out "
            "Time (s),Ready (\u00b5s),Waits (\u00b5s),CPU Usage (ms),Readying Process,Readying Thread Id,"
            "New Prev State\r\n")
    for proc in sorted(groups, key=lambda p: -usage[p]):
        for _, _, line in sorted(groups[proc]):
            f.write(line + "\r\n")
print("%s: %d rows" % (out, per_cpu * cpus), file=sys.stderr)
