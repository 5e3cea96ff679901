#!/usr/bin/env python3
"""Baseline for the ingest benchmark: load a Perfmon CSV into SQLite with plain Python.

This is the script a user would write: the csv module reads the file, each non-blank cell becomes
a (series, time, value) row, and sqlite3's executemany inserts them all in one transaction into
an unindexed table. It is not made slow on purpose: one transaction, executemany over a
generator (constant memory), no per-row commits, no index maintenance during the load.

  baseline_ingest.py --db out.db guest.csv
Prints one line: bytes, seconds, MB/s, rows inserted.
"""

import argparse
import csv
import datetime as dt
import os
import sqlite3
import sys
import time


def samples(path, series_ids):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        bias = dt.timedelta(minutes=int(header[0].rsplit("(", 1)[1].rstrip(")")))  # "(...)(300)"
        ids = series_ids(header[1:])
        for row in reader:
            t = dt.datetime.strptime(row[0], "%m/%d/%Y %H:%M:%S.%f") + bias
            t_ns = int(t.replace(tzinfo=dt.timezone.utc).timestamp()) * 1_000_000_000 + t.microsecond * 1000
            for sid, cell in zip(ids, row[1:]):
                if cell.strip():
                    yield (sid, t_ns, float(cell))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("file")
    a = ap.parse_args(argv)
    if os.path.exists(a.db):
        os.remove(a.db)
    con = sqlite3.connect(a.db)
    con.executescript(
        "CREATE TABLE series(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL);"
        "CREATE TABLE sample(series_id INTEGER NOT NULL, time_ns INTEGER NOT NULL, value REAL NOT NULL);")

    def series_ids(paths):
        con.executemany("INSERT INTO series(path) VALUES (?)", [(p,) for p in paths])
        return [r[0] for r in con.execute("SELECT id FROM series ORDER BY id")]

    t0 = time.perf_counter()
    with con:  # one transaction
        con.executemany("INSERT INTO sample(series_id, time_ns, value) VALUES (?, ?, ?)", samples(a.file, series_ids))
    secs = time.perf_counter() - t0
    n = con.execute("SELECT count(*) FROM sample").fetchone()[0]
    con.close()
    size = os.path.getsize(a.file)
    print("baseline bytes=%d seconds=%.3f mb_per_s=%.2f rows=%d" % (size, secs, size / 1e6 / secs, n))


if __name__ == "__main__":
    sys.exit(main())
