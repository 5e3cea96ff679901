#!/usr/bin/env bash
# Builds vrecon and runs the whole test suite with ctest (the format and lint checks are
# scripts/lint.sh, a step of their own in CI).
#   scripts/test.sh             Release build in build/
#   scripts/test.sh --sanitize  AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/,
#                               compiled with clang (GCC builds the Release)
#   scripts/test.sh --build     the Release build only, no tests (CI starts the lint, which reads
#                               build/compile_commands.json, while the tests run)
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0; [ "${1:-}" = "--sanitize" ] && sanitize=1
build_only=0; [ "${1:-}" = "--build" ] && build_only=1
if [ $sanitize = 1 ]; then scripts/install-deps.sh --clang; else scripts/install-deps.sh; fi
# CI must run the browser test of the HTML report (tests/report/report_browser_test.cc), not skip it.
export VRECON_REQUIRE_CHROMIUM=1
export VRECON_REQUIRE_PROMETHEUS=1
# Warnings in the project's own code fail the build here (VRECON_WERROR; off for plain users).
build=build; flags=(-DCMAKE_BUILD_TYPE=Release -DVRECON_WERROR=ON)
if [ $sanitize = 1 ]; then
  # clang compiles this Debug build in about 40% of GCC's time (the suite is the same), and is a
  # second compiler's warnings on all of the code (docs/development.md "Build time"). The
  # benchmarks are not run under the sanitizers: not built there.
  # Line tables are all a sanitizer's report needs: 10% less build time than full -g, and 0.4 GB
  # less disk, for the same report lines (docs/development.md "CI time"). The unit tests run as
  # four gtest shards, not one binary start per test (tests/CMakeLists.txt).
  build=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DVRECON_SANITIZE=ON -DVRECON_WERROR=ON -DVRECON_BUILD_BENCH=OFF
                           -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only
                           -DVRECON_UNIT_TEST_SHARDS=4)
fi
# ccache, with its cache in the tree: the package build (scripts/package.sh) compiles the same
# objects with the same flags and takes them from here.
export CCACHE_DIR=$PWD/build-ccache
# A unity build's files live in the build directory (build/, build-pkg/): paths relative to the
# tree make the two builds' objects the same in the cache.
export CCACHE_BASEDIR=$PWD
# The test targets' precompiled headers (tests/CMakeLists.txt) are cached only with these.
export CCACHE_SLOPPINESS=pch_defines,time_macros
# VRECON_CCACHE=0 compiles without it: a build that nothing after it takes objects from (CI's
# sanitizer build) pays ccache's second preprocessing of each file on every miss, about 12% more
# CPU (docs/development.md "CI time").
launcher=ccache; [ "${VRECON_CCACHE:-1}" = 0 ] && launcher=
flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DVRECON_GOCACHE="$PWD/build-gocache")
# The product's libraries as unity builds (a few .cc files compiled as one): a clean build in
# little more than half the CPU (docs/development.md "Build time"). VRECON_UNITY_BUILD=OFF for a
# build/ you edit in, where a change then recompiles one file, not its batch. The sanitizer build
# is one file per object: clang there compiles every file alone, which a unity build cannot
# (a file that forgets an #include compiles after the one before it in its batch); that check
# then costs CI 190 s of CPU, against 280 s for scripts/compile-alone.py's syntax-only pass.
unity=${VRECON_UNITY_BUILD:-ON}
[ $sanitize = 1 ] && unity=${VRECON_UNITY_BUILD:-OFF}
flags+=(-DCMAKE_UNITY_BUILD="$unity")
cmake -S . -B "$build" "${flags[@]}"
cmake --build "$build" -j"$(nproc)"
[ $build_only = 1 ] && exit 0
# The PostgreSQL store's tests run against a throw-away cluster that Debian's pg_virtualenv starts
# (and removes) around ctest; there a missing PostgreSQL fails them rather than skipping them.
# The sanitizer run leaves out the statistical accuracy tests (label `accuracy`, tests/CMakeLists.txt).
skip=(); [ $sanitize = 1 ] && skip=(-LE accuracy)
# Most tests wait on the binary they run, a server or a sleep: twice as many tests as cores keep
# the cores busy (docs/development.md, "CI time").
VRECON_TEST_PG=require pg_virtualenv ctest --test-dir "$build" --output-on-failure -j"$(($(nproc) * 2))" "${skip[@]}"
