#!/usr/bin/env bash
# Installs the Debian 12 packages vrecon needs to build and test, only those missing.
# Usage: scripts/install-deps.sh [--fuzz] [extra-package ...]
#   --fuzz  also clang and its libFuzzer/sanitizer runtimes, for scripts/fuzz.sh
set -euo pipefail
fuzz=()
if [ "${1:-}" = "--fuzz" ]; then
  shift
  fuzz=(clang libclang-rt-14-dev)
fi
pkgs=(cmake g++ make pkg-config libsqlite3-dev libcurl4-openssl-dev libpugixml-dev libeigen3-dev
      libpq-dev postgresql postgresql-common libcpp-httplib-dev libcrypt-dev prometheus openssl libcli11-dev libtomlplusplus-dev libgtest-dev libgmock-dev zlib1g-dev golang-go golang-github-vmware-govmomi-dev curl chromium
      "${fuzz[@]}" "$@")
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
