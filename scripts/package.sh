#!/usr/bin/env bash
# Builds vrecon_<version>-1_amd64.deb from this tree (cmake/packaging.cmake) into build-pkg/ and
# checks it with lintian (no errors allowed).
#   scripts/package.sh            build and lint
# Needs, besides the build's packages: help2man (man pages), dpkg-dev (dpkg-shlibdeps computes
# Depends), lintian.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --build-only help2man dpkg-dev lintian
build=build-pkg
mkdir -p "$build"
log=$build/build.log
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# Who answers for the package: VRECON_MAINTAINER, else the author of the commit it is built from.
maintainer=${VRECON_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}
[ -n "$maintainer" ] || { echo "package: set VRECON_MAINTAINER=\"Name <mail>\"" >&2; exit 2; }
# The flags of scripts/test.sh's build (and its ccache), so that after it the objects come from
# the cache.
export CCACHE_DIR=$PWD/build-ccache CCACHE_BASEDIR=$PWD
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DVRECON_WERROR=ON -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DCMAKE_UNITY_BUILD="${VRECON_UNITY_BUILD:-ON}" \
  -DCMAKE_INSTALL_PREFIX=/usr -DVRECON_PACKAGE=ON \
  -DVRECON_BUILD_TESTS=OFF -DVRECON_BUILD_BENCH=OFF -DVRECON_PACKAGE_COMMIT="$commit" \
  -DVRECON_PACKAGE_MAINTAINER="$maintainer" >"$log" 2>&1 ||
  { tail -n 30 "$log"; exit 1; }
cmake --build "$build" -j"$(nproc)" >>"$log" 2>&1 || { tail -n 40 "$log"; exit 1; }
rm -f "$build"/vrecon_*.deb
(cd "$build" && cpack -G DEB >>"build.log" 2>&1) || { tail -n 40 "$log"; exit 1; }
deb=$(ls "$build"/vrecon_*_amd64.deb)
echo "package: $deb"
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
# Errors fail; warnings are printed for a person to judge.
lintian --fail-on error --tag-display-limit 0 "$deb"
echo "lintian: no errors"
