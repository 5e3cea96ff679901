#!/usr/bin/env python3
"""Writes a synthetic `xperf -a dumper` text for the ETW reader benchmark (not a test fixture):
CPUS CPUs running PROCS processes of 1-8 threads for SECONDS seconds, with about EVENTS events in
all (70% CSwitch, 25% ReadyThread, 5% DPC/Interrupt), in time order, each CPU's switch sequence
whole. Lines are padded as xperf pads them.

  gen_xperf_dumper.py OUT EVENTS [CPUS=8] [SECONDS=60] [PROCS=200]
"""
import random
import sys

out, events = sys.argv[1], int(sys.argv[2])
cpus = int(sys.argv[3]) if len(sys.argv) > 3 else 8
seconds = int(sys.argv[4]) if len(sys.argv) > 4 else 60
nprocs = int(sys.argv[5]) if len(sys.argv) > 5 else 200
rng = random.Random(42)

procs = [("Idle", 0, [0])]
for i in range(1, nprocs + 1):
    pid = 1000 + 4 * i
    procs.append(("proc%d.exe" % i, pid, [pid * 10 + k for k in range(1, rng.randint(1, 8) + 1)]))
threads = [(name, pid, tid) for name, pid, tids in procs[1:] for tid in tids]

switches = int(events * 0.70)
per_cpu = switches // cpus
span_us = seconds * 1_000_000
step = span_us // per_cpu


def proc(name, pid):
    return "%s (%5d)" % (name, pid)


header = [
    "BeginHeader",
    "                CSwitch,  TimeStamp, New Process Name ( PID),    New TID, NPri, NQnt, TmSinceLast, WaitTime, "
    "Old Process Name ( PID),    Old TID, OPri, OQnt,        OldState,      Wait Reason, Swapable, InSwitchTime, CPU, "
    "IdealProc,  OldRemQnt, NewPriDecr, PrevCState, OldThrdBamQosLevel, NewThrdBamQosLevel",
    "            ReadyThread,  TimeStamp,     Process Name ( PID),   ThreadID, Rdy Process Name ( PID),    Rdy TID, "
    "AdjustReason, AdjustIncrement, Flag, CPU",
    "                    DPC,  TimeStamp, ElapsedTime, CPU,        ServiceAddr,            Image!Function",
    "              Interrupt,  TimeStamp, ElapsedTime, CPU, Vector, MessageIndex,     Status,        ServiceAddr,"
    "            Image!Function",
    "EndHeader",
    "OS Version: 10.0.19045, Trace Size: 1024KB, Events Lost: 0, Buffers lost: 0, Trace Start: 134380872000000000, "
    "Trace Length: %d sec, PointerSize: 8, Trace Name: bench.etl" % seconds,
]

# Every CPU's events, generated per CPU, then merged by time (a thread is never on two CPUs: each
# CPU draws from its own slice of the threads).
lines = []
slices = [threads[c::cpus] for c in range(cpus)]
for c in range(cpus):
    cur = ("Idle", 0, 0)
    t = rng.randint(0, step)
    mine = slices[c]
    for _ in range(per_cpu):
        nxt = ("Idle", 0, 0) if rng.random() < 0.3 or not mine else rng.choice(mine)
        if nxt[2] != 0 and rng.random() < 0.7:
            lines.append((t - rng.randint(1, 50), "%23s, %10d, %24s, %10d, %24s, %10d, %12d, %15d, %4d, %3d" % (
                "ReadyThread", t - 1, proc("System", 4), 12, proc(nxt[0], nxt[1]), nxt[2], 1, 0, 0, c)))
        state = "Ready" if cur[2] != 0 and rng.random() < 0.3 else "Waiting"
        lines.append((t, "%23s, %10d, %24s, %10d, %4d, %4d, %11d, %8d, %24s, %10d, %4d, %4d, %15s, %16s, %8s, %12d, "
                         "%3d, %9d, %10d, %10d, %10d, %18s, %18s" % (
                             "CSwitch", t, proc(nxt[0], nxt[1]), nxt[2], 9, -1, 5, 1, proc(cur[0], cur[1]), cur[2], 8,
                             -1, state, "WrQueue", "NonSwap", 20, c, c, 0, 0, 0, "Important", "Important")))
        if rng.random() < 0.07:
            lines.append((t + 1, "%23s, %10d, %11d, %3d, 0xfffff80345671234, ndis.sys!ndisInterruptDpc" % (
                "DPC", t + 1, rng.randint(2, 40), c)))
        cur = nxt
        t += rng.randint(1, 2 * step)
lines.sort(key=lambda x: x[0])
with open(out, "w") as f:
    f.write("\n".join(header) + "\n")
    for _, line in lines:
        f.write(line + "\n")
print("%s: %d events" % (out, len(lines)), file=sys.stderr)
