#!/usr/bin/env python3
"""CPU time of every ctest test of a build, its own and its children's (the vrecon binaries it
runs, the servers it starts), costliest first: what to look at when CI is slow.

  scripts/test-cpu.py BUILD_DIR [-j JOBS] [-L REGEX] [-E REGEX] [--top N] [--csv FILE]

Runs the tests as ctest would (command, working directory, environment properties), JOBS at a
time (default: the cores), and takes each one's CPU from wait4(2): user + system of the test
process and of every descendant it waited for. Wall time beside a busy machine says little; CPU
is what a 2-core CI run pays. Run it where ctest runs (inside pg_virtualenv for the PostgreSQL
tests), e.g. `VRECON_TEST_PG=require pg_virtualenv scripts/test-cpu.py build-asan -E accuracy`.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


def load_tests(build, include, exclude):
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    tests = []
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        labels = props.get("LABELS", [])
        if include and not any(re.search(include, label) for label in labels):
            continue
        if exclude and any(re.search(exclude, label) for label in labels):
            continue
        if props.get("DISABLED"):
            continue
        env = dict(os.environ)
        for kv in props.get("ENVIRONMENT", []):
            key, _, value = kv.partition("=")
            env[key] = value
        tests.append({"name": t["name"], "command": t["command"], "cwd": props.get("WORKING_DIRECTORY", build),
                      "env": env, "labels": labels})
    return tests


def run_all(tests, jobs):
    """Starts tests JOBS at a time; returns (name, labels, cpu s, wall s, exit) per test."""
    pending = list(reversed(tests))
    running = {}
    results = []
    while pending or running:
        while pending and len(running) < jobs:
            t = pending.pop()
            p = subprocess.Popen(t["command"], cwd=t["cwd"], env=t["env"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            # The Popen object is kept until its test is reaped here: one dropped earlier is
            # reaped by subprocess's own clean-up at the next Popen, and its figures lost.
            running[p.pid] = (t, time.monotonic(), p)
        pid, status, usage = os.wait4(-1, 0)
        if pid not in running:
            continue
        t, start, p = running.pop(pid)
        p.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
        results.append((t["name"], ";".join(t["labels"]), cpu, time.monotonic() - start,
                        p.returncode))
        print(f"\r{len(results)}/{len(tests)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    ap.add_argument("-L", dest="include", help="only tests with a label matching this")
    ap.add_argument("-E", dest="exclude", help="leave out tests with a label matching this")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--csv", help="every test's figures to this file")
    args = ap.parse_args()
    tests = load_tests(args.build, args.include, args.exclude)
    if not tests:
        print(f"test-cpu.py: no tests in {args.build}", file=sys.stderr)
        return 2
    started = time.monotonic()
    results = sorted(run_all(tests, args.jobs), key=lambda r: -r[2])
    wall = time.monotonic() - started
    total = sum(r[2] for r in results)
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("test,labels,cpu_s,wall_s,exit\n")
            for r in results:
                f.write(f"{r[0]},{r[1]},{r[2]:.2f},{r[3]:.2f},{r[4]}\n")
    print(f"{len(results)} tests, {total:.0f} s of CPU in {wall:.0f} s ({args.jobs} at a time)")
    by_label = {}
    for r in results:
        for label in r[1].split(";"):
            by_label[label] = by_label.get(label, 0.0) + r[2]
    print("by label: " + ", ".join(f"{k} {v:.0f} s" for k, v in sorted(by_label.items(), key=lambda kv: -kv[1])))
    print(f"{'cpu s':>8} {'wall s':>8}  test")
    for r in results[:args.top]:
        flag = "" if r[4] == 0 else f"  (exit {r[4]})"
        print(f"{r[2]:8.1f} {r[3]:8.1f}  {r[0]}{flag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
