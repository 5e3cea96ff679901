#!/usr/bin/env bash
# Cross-compiles vrecon-agent.exe with Debian's mingw-w64 into build-win/, then (with --smoke)
# runs it under wine: start-up, --help, error paths and the file format on \System\System Up Time
# (the one real counter wine's PDH has). Installs what it needs with apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=0; [ "${1:-}" = "--smoke" ] && smoke=1
extra=(g++-mingw-w64-x86-64-posix)
[ $smoke = 1 ] && extra+=(wine64)
scripts/install-deps.sh "${extra[@]}"
cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DVRECON_WERROR=ON
cmake --build build-win -j"$(nproc)"
exe=build-win/agent/windows/vrecon-agent.exe
echo "built $exe ($(stat -c %s "$exe") bytes)"
[ $smoke = 1 ] || exit 0

wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
wineserver=$(command -v wineserver64 || command -v wineserver || echo /usr/lib/wine/wineserver64)
# wineserver outlives the last wine process by a few seconds and may still write into the
# prefix: stop it and wait before removing the prefix, or rm meets a directory that is not empty.
cleanup() {
  "$wineserver" -k 2>/dev/null || true
  "$wineserver" -w 2>/dev/null || true
  rm -rf "$tmp"
}
tmp=$(mktemp -d); trap cleanup EXIT
export WINEPREFIX="$tmp/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
run() { timeout 120 "$wine" "$exe" "$@"; }
fail() { echo "wine smoke: $*" >&2; exit 1; }
run --help >"$tmp/help.txt" 2>/dev/null || fail "--help did not exit 0"
grep -q -- "--rotate-minutes" "$tmp/help.txt" || fail "--help text missing"
set +e
run --interval 0 >/dev/null 2>"$tmp/err.txt"; rc=$?
set -e
[ $rc = 2 ] || fail "bad usage exited $rc, not 2"
mkdir -p "$tmp/out"
set +e
run --set none --counter '\No Such Object\Foo' --count 1 --interval 1 --out "Z:$tmp/out" 2>"$tmp/err.txt"; rc=$?
set -e
[ $rc = 1 ] || fail "a missing counter exited $rc, not 1"
grep -q 'No Such Object' "$tmp/err.txt" || fail "the error does not name the counter"
run --set none --counter '\System\System Up Time' --interval 1 --count 3 --max-size 0 --out "Z:$tmp/out" \
  2>"$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "sampling System Up Time failed"; }
files=("$tmp"/out/*.csv)
[ ${#files[@]} = 1 ] || fail "expected one file, got ${#files[@]}"
f=${files[0]}
head -c 16 "$f" | grep -q '^"(PDH-CSV 4.0) (' || fail "header does not start with (PDH-CSV 4.0)"
head -n1 "$f" | grep -qE '^"\(PDH-CSV 4\.0\) \([^)]*\)\(-?[0-9]+\)","\\\\[^\\]+\\System\\System Up Time"'$'\r''$' \
  || fail "header shape: $(head -n1 "$f")"
[ "$(wc -l <"$f")" = 4 ] || fail "expected header + 3 rows"
tail -n +2 "$f" | grep -qvE '^"[0-9]{2}/[0-9]{2}/[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}","[^"]+"'$'\r''$' \
  && fail "row shape: $(sed -n 2p "$f")"
if [ -x build/src/cli/vrecon ]; then  # the file reads back through vrecon's own reader
  build/src/cli/vrecon ingest --db "$tmp/s.db" "$f" >/dev/null || fail "vrecon ingest refused the agent's file"
fi
echo "wine smoke: ok ($(head -n1 "$f" | tr -d '\r'))"
