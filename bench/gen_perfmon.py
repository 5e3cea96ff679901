#!/usr/bin/env python3
"""Deterministic generator of a realistic guest Perfmon log (PDH-CSV 4.0) for the ingest benchmark.

The default is one day of 15 s samples (5,760 rows) from machine WEB01 with about 1,000 counters:
Processor(0..7,_Total), Memory, System, LogicalDisk, PhysicalDisk, Network Interface and Process(...)
counters for ~60 processes (svchost, svchost#1..#N, w3wp#.., sqlservr, ...), which is ~70 MB of CSV.

The text looks like what relog/Perfmon writes: every cell quoted, CRLF line ends, the header cell
"(PDH-CSV 4.0) (Eastern Standard Time)(300)", rate counters formatted with ~20 significant digits
("13.959073156484624434"), raw counters as integers, and " " (one blank) in the first row for
rate counters, which have no value until the second sample.

Same arguments -> byte-identical output.

  gen_perfmon.py --out guest.csv                    # ~70 MB, 1 day, ~1,000 columns
  gen_perfmon.py --out guest2x.csv --rows 11520     # twice as long: ~140 MB
"""

import argparse
import datetime as dt
import math
import random
import sys

MACHINE = "WEB01"

# (counter, kind) where kind is:
#   "pct"   a percentage rate counter (blank in the first row, long float)
#   "rate"  a per-second rate counter (blank in the first row, long float)
#   "int"   a raw integer counter (present from the first row)
#   "gauge" a raw instantaneous float-ish counter printed as an integer
PROCESSOR_COUNTERS = [
    ("% Processor Time", "pct"), ("% User Time", "pct"), ("% Privileged Time", "pct"),
    ("% Interrupt Time", "pct"), ("% DPC Time", "pct"), ("% Idle Time", "pct"),
    ("Interrupts/sec", "rate"), ("DPCs Queued/sec", "rate"),
]
MEMORY_COUNTERS = [
    ("Available Bytes", "int"), ("Available MBytes", "int"), ("Committed Bytes", "int"),
    ("Commit Limit", "int"), ("% Committed Bytes In Use", "pct"), ("Cache Bytes", "int"),
    ("Pool Paged Bytes", "int"), ("Pool Nonpaged Bytes", "int"), ("Page Faults/sec", "rate"),
    ("Pages/sec", "rate"), ("Pages Input/sec", "rate"), ("Page Reads/sec", "rate"),
    ("Cache Faults/sec", "rate"), ("Transition Faults/sec", "rate"), ("Modified Page List Bytes", "int"),
]
SYSTEM_COUNTERS = [
    ("Processor Queue Length", "int"), ("Context Switches/sec", "rate"), ("System Calls/sec", "rate"),
    ("Threads", "int"), ("Processes", "int"), ("System Up Time", "rate"),
    ("File Read Operations/sec", "rate"), ("File Write Operations/sec", "rate"),
]
DISK_COUNTERS = [
    ("% Disk Time", "pct"), ("% Idle Time", "pct"), ("Avg. Disk Queue Length", "rate"),
    ("Current Disk Queue Length", "int"), ("Avg. Disk sec/Read", "rate"), ("Avg. Disk sec/Write", "rate"),
    ("Disk Reads/sec", "rate"), ("Disk Writes/sec", "rate"), ("Disk Read Bytes/sec", "rate"),
    ("Disk Write Bytes/sec", "rate"),
]
LOGICAL_EXTRA = [("% Free Space", "pct"), ("Free Megabytes", "int")]
NETWORK_COUNTERS = [
    ("Bytes Total/sec", "rate"), ("Bytes Received/sec", "rate"), ("Bytes Sent/sec", "rate"),
    ("Packets/sec", "rate"), ("Current Bandwidth", "int"), ("Output Queue Length", "int"),
]
PROCESS_COUNTERS = [
    ("% Processor Time", "pct"), ("% User Time", "pct"), ("% Privileged Time", "pct"),
    ("ID Process", "int"), ("Creating Process ID", "int"), ("Working Set", "int"),
    ("Working Set - Private", "int"), ("Working Set Peak", "int"), ("Private Bytes", "int"),
    ("Virtual Bytes", "int"), ("Page File Bytes", "int"), ("Handle Count", "int"),
    ("Thread Count", "int"), ("Page Faults/sec", "rate"), ("IO Read Bytes/sec", "rate"),
    ("IO Write Bytes/sec", "rate"), ("IO Other Bytes/sec", "rate"), ("IO Data Bytes/sec", "rate"),
    ("IO Read Operations/sec", "rate"), ("IO Write Operations/sec", "rate"),
]
BASE_PROCESSES = [
    "Idle", "System", "Registry", "smss", "csrss", "csrss#1", "wininit", "winlogon", "services",
    "lsass", "fontdrvhost", "fontdrvhost#1", "dwm", "spoolsv", "MsMpEng", "NisSrv", "vmtoolsd",
    "VGAuthService", "WmiPrvSE", "WmiPrvSE#1", "sqlservr", "sqlwriter", "inetinfo", "w3wp", "w3wp#1",
    "w3wp#2", "w3wp#3", "explorer", "taskhostw", "sihost", "ctfmon", "RuntimeBroker", "conhost",
    "conhost#1", "dllhost", "msdtc", "SearchIndexer", "TrustedInstaller", "TiWorker", "powershell",
    "svchost",
]


def build_columns(target_columns):
    """Counter paths for about target_columns columns, in Perfmon's object order."""
    cols = []

    def add(obj, inst, counters):
        for name, kind in counters:
            path = "\\\\%s\\%s%s\\%s" % (MACHINE, obj, "" if inst is None else "(%s)" % inst, name)
            cols.append((path, obj, inst, name, kind))

    for inst in ["0", "1", "2", "3", "4", "5", "6", "7", "_Total"]:
        add("Processor", inst, PROCESSOR_COUNTERS)
    add("Memory", None, MEMORY_COUNTERS)
    add("System", None, SYSTEM_COUNTERS)
    for inst in ["C:", "D:", "HarddiskVolume1", "_Total"]:
        add("LogicalDisk", inst, DISK_COUNTERS + LOGICAL_EXTRA)
    for inst in ["0 C:", "1 D:", "_Total"]:
        add("PhysicalDisk", inst, DISK_COUNTERS)
    for inst in ["vmxnet3 Ethernet Adapter", "Microsoft Kernel Debug Network Adapter"]:
        add("Network Interface", inst, NETWORK_COUNTERS)
    fixed = len(cols)
    per = len(PROCESS_COUNTERS)
    n_proc = max(2, round((target_columns - fixed) / per) - 1)  # -1 for _Total
    procs = list(BASE_PROCESSES[:n_proc])
    i = 1
    while len(procs) < n_proc:
        procs.append("svchost#%d" % i)
        i += 1
    procs.append("_Total")
    for p in procs:
        add("Process", p, PROCESS_COUNTERS)
    return cols, procs


def fmt_float(v):
    """Perfmon prints rate counters with ~20 significant digits; exact zeros as "0"."""
    if v == 0.0:
        return "0"
    digits = 1 if abs(v) < 1 else int(math.log10(abs(v))) + 1
    return "%.*f" % (max(1, 20 - digits), v)


class Series:
    """One column's value process: a level with slow drift, bursts and idle stretches."""

    def __init__(self, rng, obj, inst, name, kind):
        self.kind = kind
        self.rng = rng
        busy = rng.random()
        if kind == "pct":
            self.scale = 100.0 if obj != "Process" else 100.0 * 8
            self.level = busy * (0.6 if obj != "Process" else 0.05)
            self.idle_p = 0.0 if obj in ("Processor", "Memory") else (0.75 if busy < 0.6 else 0.2)
        elif kind == "rate":
            mag = 10 ** rng.uniform(0, 7)
            self.scale = mag
            self.level = busy
            self.idle_p = 0.0 if obj in ("Processor", "System") else (0.7 if busy < 0.5 else 0.15)
        else:
            if name in ("ID Process", "Creating Process ID"):
                self.fixed = rng.randrange(4, 20000, 4)
            elif name in ("Processes", "Current Bandwidth"):
                self.fixed = 67 if name == "Processes" else 10000000000
            else:
                self.fixed = None
            self.scale = 10 ** rng.uniform(1, 10)
            self.level = busy
            self.idle_p = 0.0

    def value(self, row):
        if self.kind == "int":
            if self.fixed is not None:
                return str(self.fixed)
            self.level = min(1.0, max(0.05, self.level + self.rng.gauss(0, 0.002)))
            return str(int(self.scale * self.level))
        if row == 0:
            return " "  # rate counters need two samples
        if self.rng.random() < self.idle_p:
            return "0"
        self.level = min(1.0, max(0.0, self.level + self.rng.gauss(0, 0.01)))
        v = self.scale * self.level * (0.5 + self.rng.random())
        if self.kind == "pct":
            v = min(v, self.scale)
        return fmt_float(v)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output CSV path ('-' for stdout)")
    ap.add_argument("--rows", type=int, default=5760, help="data rows (default 5760 = one day at 15 s)")
    ap.add_argument("--columns", type=int, default=1000, help="approximate number of counter columns")
    ap.add_argument("--interval", type=float, default=15.0, help="sample interval in seconds")
    ap.add_argument("--seed", type=int, default=1, help="random seed")
    a = ap.parse_args(argv)

    rng = random.Random(a.seed)
    cols, _ = build_columns(a.columns)
    series = [Series(rng, obj, inst, name, kind) for (_, obj, inst, name, kind) in cols]
    out = sys.stdout.buffer if a.out == "-" else open(a.out, "wb")
    try:
        header = ['"(PDH-CSV 4.0) (Eastern Standard Time)(300)"'] + ['"%s"' % c[0] for c in cols]
        out.write((",".join(header) + "\r\n").encode("utf-8"))
        t0 = dt.datetime(2026, 1, 12, 0, 0, 0)
        jitter_ms = 0
        for r in range(a.rows):
            jitter_ms = max(0, min(900, jitter_ms + rng.randint(-3, 4)))  # Perfmon's clock wobble
            t = t0 + dt.timedelta(seconds=r * a.interval, milliseconds=jitter_ms)
            stamp = t.strftime("%m/%d/%Y %H:%M:%S.") + "%03d" % (t.microsecond // 1000)
            cells = [stamp] + [s.value(r) for s in series]
            out.write(('"' + '","'.join(cells) + '"\r\n').encode("ascii"))
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    print("wrote %s: %d rows x %d counter columns" % (a.out, a.rows, len(cols)), file=sys.stderr)


if __name__ == "__main__":
    main()
