#!/usr/bin/env python3
"""Writes a Perfmon CSV log of about --size-mb megabytes, or --rows rows, with --columns process
columns, straight to --out in 4 MiB pieces: the whole log is never held, so the generator can
make logs larger than memory. Used by bench/stream_limits.sh (large logs) and
bench/wide_log.sh (wide ones). Same arguments -> identical bytes.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--columns", type=int, default=20, help="process instances (plus _Total and Idle)")
    ap.add_argument("--size-mb", type=float, help="stop once the file is this large")
    ap.add_argument("--rows", type=int, help="stop after this many rows")
    a = ap.parse_args()
    if (a.size_mb is None) == (a.rows is None):
        sys.exit("give exactly one of --size-mb and --rows")
    limit_bytes = int(a.size_mb * 1024 * 1024) if a.size_mb is not None else None
    m = "WEB01"
    names = ["_Total", "Idle"] + ["p%d" % i for i in range(a.columns)]
    header = ['"(PDH-CSV 4.0) (UTC)(0)"', '"\\\\%s\\Processor(_Total)\\%% Processor Time"' % m]
    header += ['"\\\\%s\\Process(%s)\\%% Processor Time"' % (m, n) for n in names]
    # A few distinct value patterns, cycled: formatting every cell per row would make the
    # generator, not vrecon, the slow part.
    patterns = []
    for k in range(7):
        cells = ['"%.3f"' % ((k * 13 + 7) % 90 + 0.5), '"%.3f"' % (400 - k), '"%.3f"' % (100 + k)]
        cells += ['"%.3f"' % (((i * 31 + k * 17) % 400) / 100.0) for i in range(a.columns)]
        patterns.append("," + ",".join(cells) + "\r\n")
    written = 0
    buf = []
    pending = 0
    with open(a.out, "w", newline="", encoding="ascii") as f:
        line = ",".join(header) + "\r\n"
        f.write(line)
        written += len(line)
        # Timestamps: 15 s steps from 2026-01-01 00:00:15 UTC, as MM/DD/YYYY HH:MM:SS.mmm.
        import datetime as dt
        t = dt.datetime(2026, 1, 1, 0, 0, 15)
        step = dt.timedelta(seconds=15)
        row = 0
        while True:
            if a.rows is not None and row >= a.rows:
                break
            if limit_bytes is not None and written + pending >= limit_bytes:
                break
            line = t.strftime('"%m/%d/%Y %H:%M:%S.000"') + patterns[row % len(patterns)]
            buf.append(line)
            pending += len(line)
            row += 1
            t += step
            if pending >= 4 << 20:
                f.write("".join(buf))
                written += pending
                buf, pending = [], 0
        f.write("".join(buf))
        written += pending
    print("%s: %d rows, %d columns, %.1f MB" % (a.out, row, len(header) - 1, written / 1048576.0), file=sys.stderr)


if __name__ == "__main__":
    main()
