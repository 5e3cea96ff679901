#!/usr/bin/env bash
# Format and static checks of vrecon's own C++: src adapters models agent tests fuzz bench
# (not fixtures, corpora or anything third-party). Pinned to clang 14 (Debian 12), since another
# clang-format version formats differently.
#   scripts/lint.sh          check: clang-format must change nothing, then clang-tidy (.clang-tidy)
#                            over build/compile_commands.json (all but tests/; a unity build/'s
#                            batches whole, and each file of them compiled alone) must report
#                            nothing; exit 1 if either does
#   scripts/lint.sh --fix    rewrite the files in place with clang-format (clang-tidy is not run)
#   scripts/lint.sh --format check the format only (no build needed)
# The check needs a configured build/ (scripts/test.sh makes one); it lints every .cc there that
# is ours, so Windows-only files (agent/windows/) get the format check only.
# VRECON_LINT_COMPILE_ALONE=0 leaves out compiling each batched file alone: CI sets it, since its
# sanitizer build (scripts/test.sh --sanitize) compiles every file alone anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=check
case "${1:-}" in
  --fix) mode=fix ;;
  --format) mode=format ;;
  "") ;;
  *) echo "usage: scripts/lint.sh [--fix | --format]" >&2; exit 2 ;;
esac

# First, since it is cheap (grep): all SQL lives under src/store/, behind the Store interface, so
# that the rest does not depend on the database backend (docs/architecture.md). Outside src/store/
# nothing may reach the connection (->db()), name Database or Statement, or include SQLite's or
# the wrapper's header; tests/ may, to inspect a store's raw tables. New files count before `git add`.
boundary_ok=1
if [ $mode != fix ]; then
  boundary_dirs=(src adapters models agent bench)
  while IFS=: read -r file line _; do
    boundary_ok=0
    echo "lint: $file:$line: database access outside src/store/: go through the Store interface" >&2
  done < <(git ls-files --cached --others --exclude-standard -- "${boundary_dirs[@]/%//*.cc}" \
             "${boundary_dirs[@]/%//*.h}" | grep -v '^src/store/' |
             xargs -r grep -snHE -e '->db\(\)' -e '\b(Database|Statement)\b' -e 'src/store/(database|sqlite/|postgres/)' -e '<sqlite3\.h>' -e '<libpq-fe\.h>' || true)
fi

scripts/install-deps.sh clang-format-14 clang-tidy-14 python3

dirs=(src adapters models agent tests fuzz bench)
mapfile -t files < <(git ls-files -- "${dirs[@]/%//*.cc}" "${dirs[@]/%//*.h}")

if [ $mode = fix ]; then
  clang-format-14 -i "${files[@]}"
  exit 0
fi

status=0
[ $boundary_ok = 1 ] || status=1
echo "lint: clang-format on ${#files[@]} files" >&2
clang-format-14 --dry-run -Werror "${files[@]}" || status=1
[ $mode = format ] && exit $status

# clang-tidy covers the product's code; tests/ is left out: its GoogleTest-heavy files would take
# three quarters of the time (docs/development.md).
tidy_dirs=(src adapters models agent fuzz bench)
db_dir=build
[ -f "$db_dir/CMakeCache.txt" ] || { echo "lint: build/ is not configured: run scripts/test.sh first" >&2; exit 1; }
db=$db_dir/compile_commands.json
[ -f "$db" ] || { echo "lint: $db missing: configure build/ first (scripts/test.sh)" >&2; exit 1; }
# The file regex: the sources of our directories as compile_commands.json names them (absolute).
root=$(pwd -P)
dirs_alt=$(IFS='|'; echo "${tidy_dirs[*]}")
ours="$root/($dirs_alt)/[^\"]*\.cc"
# clang-tidy reports what it finds in our files only: the header filter takes our .cc files in as
# well as our headers (a unity batch includes the .cc files), the line filter lists our files, so
# that CMake's own batch files (their `#include "x.cc"` lines) are not ours to fix.
header_filter="^$root/($(IFS='|'; echo "${dirs[*]}"))/.*\.(h|cc)\$"
line_filter="[$(git ls-files -- "${dirs[@]/%//*.cc}" "${dirs[@]/%//*.h}" | sed "s|.*|{\"name\":\"$root/&\"}|" | paste -sd,)]"
if grep -q '/Unity/unity_' "$db"; then
  # A unity build/ (scripts/test.sh makes one): clang-tidy parses each batch once, and its checks
  # see every file the batch includes, in about a fifth of the CPU of one run per file
  # (docs/development.md, "CI time"). What the batches would hide, a file that compiles only
  # after the one before it, scripts/compile-alone.py catches: each file compiled alone.
  # The batches of our product's directories: the test binaries' batches (build/tests/) are not
  # clang-tidy's.
  batches="$root/$db_dir/($dirs_alt)/[^\"]*/Unity/unity_[0-9]+_cxx\.cxx"
  regex="^($batches|$ours)\$"
  count=$(cat $(grep -oE "\"file\": \"$batches\"" "$db" | cut -d'"' -f4) |
          grep -cE "^#include \"$root/($dirs_alt)/" || true)
  count=$((count + $(grep -cE "\"file\": \"$ours" "$db" || true)))
  if [ "${VRECON_LINT_COMPILE_ALONE:-1}" != 0 ]; then
    # The test files too: the test binaries are batched in a unity build (tests/CMakeLists.txt).
    python3 scripts/compile-alone.py "$db" "$root" "^$root/($dirs_alt|tests)/[^\"]*\.cc\$" "$(nproc)" || status=1
  fi
else
  regex="^$ours\$"
  count=$(grep -cE "\"file\": \"$ours" "$db" || true)
fi
echo "lint: clang-tidy on $count of the project's files in $db" >&2
start=$SECONDS
# -Wno-unknown-warning-option: the database holds GCC's flags (-Wno-restrict), which clang lacks.
run-clang-tidy-14 -p "$db_dir" -j"$(nproc)" -quiet -header-filter="$header_filter" -line-filter="$line_filter" \
  -extra-arg=-Wno-unknown-warning-option "$regex" \
  > build/clang-tidy.log 2>&1 || status=1
sed 's/\x1b\[[0-9;]*m//g' build/clang-tidy.log | grep -E '(warning|error): ' | sort -u >&2 || true
echo "lint: clang-tidy took $((SECONDS - start)) s; full output in build/clang-tidy.log" >&2
exit $status
