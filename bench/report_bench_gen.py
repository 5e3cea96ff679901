#!/usr/bin/env python3
"""Fills a vrecon store's stored-correction tables (schema migrations 3 and 5, docs/storage.md) with a
synthetic fleet for the report benchmark: VMS VMs x DAYS days of 300 s windows, PROCS processes
per VM (hourly aggregates), Ready-Time summaries with hints on every 10th VM, flags on ~8% of
windows. Deterministic (seeded). The store must already exist and be migrated (report_bench.sh
creates it with `vrecon ingest`).

    python3 report_bench_gen.py STORE [VMS] [DAYS] [PROCS]
    python3 report_bench_gen.py --copy [VMS] [DAYS] [PROCS] | psql -q URI   # PostgreSQL: COPY text
"""
import math
import random
import sqlite3
import struct
import sys

db_path = sys.argv[1]
COPY = db_path == "--copy"
VMS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
DAYS = int(sys.argv[3]) if len(sys.argv) > 3 else 7
PROCS = int(sys.argv[4]) if len(sys.argv) > 4 else 20
WINDOW = 300
T0 = 1793836800  # 2026-11-05T00:00:00Z
NS = 1_000_000_000
rng = random.Random(6)



class SqliteOut:
    def __init__(self, path):
        self.con = sqlite3.connect(path)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=OFF")
        for t in ("corr_ready_day", "corr_window_block", "corr_process_hour", "corr_ready", "corr_vm"):
            self.con.execute(f"DELETE FROM {t}")

    def rows(self, table, columns, rows):
        marks = ",".join("?" * len(columns))
        self.con.executemany(f"INSERT INTO {table}({','.join(columns)}) VALUES({marks})", rows)

    def commit(self):
        self.con.commit()


class CopyOut:
    """PostgreSQL's COPY text format on stdout, one COPY per call; bytea as \\x hex."""

    def __init__(self):
        self.w = sys.stdout.write
        self.w("BEGIN;\nTRUNCATE corr_ready_day, corr_window_block, corr_process_hour, corr_ready, corr_vm;\n")

    @staticmethod
    def cell(v):
        if v is None:
            return "\\N"
        if isinstance(v, (bytes, bytearray)):
            return "\\\\x" + bytes(v).hex()
        if isinstance(v, float):
            return repr(v)
        return str(v).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")

    def rows(self, table, columns, rows):
        self.w(f"COPY {table}({','.join(columns)}) FROM STDIN;\n")
        for r in rows:
            self.w("\t".join(self.cell(v) for v in r) + "\n")
        self.w("\\.\n")

    def commit(self):
        pass

    def close(self):
        self.w("COMMIT;\n")


out = CopyOut() if COPY else SqliteOut(db_path)
FLAGS = [("high-ready", "warning", "ready averages 12.0% per vCPU in this window (above 10.0%)"),
         ("low-coverage", "warning", "guest data covers 60% of the window"),
         ("idle-guest", "info", "guest busy 2.0%, below 5.0%: w undefined"),
         ("missing-host", "error", "no host-side value in this window")]

windows_per_vm = DAYS * 86400 // WINDOW
for v in range(VMS):
    name = f"VM{v:04d}"
    vcpus = rng.choice([1, 2, 4, 8])
    vm_id = v + 1
    out.rows("corr_vm", ("id", "vm_key", "vm", "vm_source", "guest_machine", "host_source", "vcpus", "stored_at"),
             [(vm_id, f"vsphere:bench/vm-{v}", name, "", name, "vsphere", vcpus, "2026-11-22T00:00:00Z")])
    base = rng.uniform(10, 70)
    wbase = rng.uniform(0.7, 1.4)
    ready_base = rng.uniform(0, 8)
    blocks = {}  # UTC hour start (ns) -> [first start, last end, count, bytes]: src/store/window_blocks.h
    for i in range(windows_per_vm):
        start = T0 + i * WINDOW
        day = math.sin(2 * math.pi * (i % 288) / 288)
        g = max(0.5, base + 15 * day + rng.gauss(0, 3))
        w = wbase + rng.gauss(0, 0.03)
        ready = max(0.0, ready_base + 3 * day + rng.gauss(0, 1))
        costop = max(0.0, ready / 4 + rng.gauss(0, 0.3))
        flags = ""
        if rng.random() < 0.08:
            f = rng.choice(FLAGS)
            flags = f"{f[1]}\t{f[0]}\t{f[2]}\n"
        # vcpus, guest, host, w, ready, costop, clock offset present; steal missing (bit 4).
        mask = 0b11101111
        rec = struct.pack("<qqBi", start * NS, (start + WINDOW) * NS, mask, vcpus)
        rec += struct.pack("<dddddddd", g, g * w, w, ready, costop, rng.gauss(0, 0.2), 1.0, 1.0)
        enc = flags.encode()
        rec += struct.pack("<I", len(enc)) + enc
        key = (start - start % 3600) * NS
        b = blocks.setdefault(key, [start * NS, 0, 0, bytearray(b"\x01")])
        b[1] = (start + WINDOW) * NS
        b[2] += 1
        b[3] += rec
    out.rows("corr_window_block", ("vm_id", "hour_ns", "first_start_ns", "last_end_ns", "windows", "data"),
             [(vm_id, k, b[0], b[1], b[2], bytes(b[3])) for k, b in blocks.items()])
    hours = []
    for h in range(DAYS * 24):
        blob = bytearray()
        for p in range(PROCS):
            pname = f"proc{p:02d}".encode()
            g = base / (p + 1)
            blob += struct.pack("<H", len(pname)) + pname
            blob += struct.pack("<qqddd", 12, 12, 12 * g, 12 * g * wbase, 12 * 0.25)
        hours.append((vm_id, (T0 + h * 3600) * NS, bytes(blob)))
    out.rows("corr_process_hour", ("vm_id", "hour_ns", "procs"), hours)
    hints = ""
    if v % 10 == 0:
        hints = "warning\tfewer-vcpus\tco-stop averages 3.1% per vCPU while each vCPU is 30% used: fewer vCPUs would help\n"
    out.rows("corr_ready", ("vm_id", "source", "host", "vcpus", "samples", "ready_mean", "ready_p95", "ready_above_5",
                            "ready_above_10", "costop_mean", "costop_p95", "costop_above_3", "run_mean", "wait_mean",
                            "usage_mean", "wait_dispatch_us_mean", "wait_dispatch_us_p95", "host_load_mean",
                            "host_load_p95", "hints"),
             [(vm_id, "vsphere", f"esx{v % 40:02d}.example.com", vcpus, windows_per_vm, ready_base, ready_base + 5,
               0.3, 0.05, ready_base / 4, ready_base / 2, 0.1, 50.0, 40.0, 45.0, None, None, float(60 + v % 40),
               float(70 + v % 30), hints)])
    if v % 100 == 99:
        out.commit()
out.commit()
if COPY:
    out.close()
print(f"{VMS} VMs x {DAYS} days: {VMS * windows_per_vm} windows, {VMS * DAYS * 24} process hours", file=sys.stderr)
