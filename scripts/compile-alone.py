#!/usr/bin/env python3
"""Compiles each of the project's .cc files that a unity build batches, alone and syntax only.

usage: scripts/compile-alone.py COMPILE_COMMANDS_JSON ROOT FILE_REGEX [JOBS]

In a unity build (scripts/test.sh makes one) a .cc file that forgets an #include can still
compile, because a file before it in its batch included the header; a build of one file per
object (plain cmake, the default) then fails. This runs the batch's own command on each file of
ours it includes, with -fsyntax-only instead of -o/-c, and fails if any file does not compile
alone. scripts/lint.sh runs it beside clang-tidy, which reads the batches whole. Prints one line
per failing file with the compiler's output, and exits 1 if there was one.
"""
import concurrent.futures
import json
import re
import shlex
import subprocess
import sys


def members(unity_file, root, file_regex):
    """The files of ours a CMake unity batch includes (`#include "<absolute path>"`), less its
    first: nothing comes before that one, so the build compiled it alone already."""
    with open(unity_file, encoding="utf-8") as f:
        included = [m.group(1) for m in (re.match(r'#include "(.*)"\s*$', line) for line in f) if m]
    return [p for p in included[1:] if p.startswith(root + "/") and file_regex.match(p)]


def alone_command(entry, source):
    """The batch's command for one of its files: its flags, -fsyntax-only, no object."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c"):
            skip = True
            continue
        if a == entry["file"]:
            continue
        out.append(a)
    return out + ["-fsyntax-only", source]


def compile_one(job):
    directory, command, source = job
    r = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    return source, r.returncode, r.stdout + r.stderr


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    db_path, root, regex = sys.argv[1], sys.argv[2].rstrip("/"), re.compile(sys.argv[3])
    jobs_n = int(sys.argv[4]) if len(sys.argv) == 5 else 2
    with open(db_path, encoding="utf-8") as f:
        db = json.load(f)
    jobs = []
    for entry in db:
        if "/Unity/unity_" not in entry["file"]:
            continue
        for source in members(entry["file"], root, regex):
            jobs.append((entry["directory"], alone_command(entry, source), source))
    print(f"lint: {len(jobs)} files of unity batches compiled alone (syntax only)", file=sys.stderr)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs_n) as pool:
        for source, rc, output in pool.map(compile_one, jobs):
            if rc != 0:
                failed += 1
                print(f"lint: {source[len(root) + 1:]} does not compile alone (a missing #include?):\n{output}",
                      file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
