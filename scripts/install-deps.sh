#!/usr/bin/env bash
# Installs the Debian 12 packages vrecon needs to build and test, only those missing.
# Usage: scripts/install-deps.sh [--clang | --fuzz | --build-only] [extra-package ...]
#   --clang       also clang and its libFuzzer/sanitizer runtimes, for the sanitizer build
#                 (scripts/test.sh --sanitize) and scripts/fuzz.sh; --fuzz is the same
#   --build-only  only what building vrecon itself needs (scripts/demo.sh): no test servers,
#                 browser or Go toolchain
set -euo pipefail
build=(cmake g++ make pkg-config ccache libsqlite3-dev libcurl4-openssl-dev libpugixml-dev libeigen3-dev
       libpq-dev libcpp-httplib-dev libcrypt-dev libcli11-dev libtomlplusplus-dev)
# The tests' own: GoogleTest, a PostgreSQL server, Prometheus, Chromium, the vCenter simulator's Go
# sources, curl and openssl.
tests=(postgresql postgresql-common prometheus openssl libgtest-dev libgmock-dev zlib1g-dev golang-go
       golang-github-vmware-govmomi-dev curl chromium)
extra=()
case "${1:-}" in
  --clang|--fuzz) shift; extra=(clang libclang-rt-14-dev) ;;
  --build-only) shift; tests=() ;;
esac
pkgs=("${build[@]}" "${tests[@]}" "${extra[@]}" "$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
