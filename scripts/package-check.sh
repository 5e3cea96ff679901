#!/usr/bin/env bash
# The Debian package as a user meets it (issue 17), in a Debian 12 chroot made with debootstrap,
# so the machine running this is left as it was:
#  1. scripts/package.sh builds the .deb and lintian finds no error;
#  2. its Depends install from Debian and the package with `dpkg -i`: `vrecon --version`, `man -w vrecon`,
#     `systemd-analyze verify` of its units, the user vrecon and /var/lib/vrecon;
#  3. `vrecon collect --once` as user vrecon against govmomi's vCenter simulator (on loopback,
#     outside the chroot), the store under /var/lib/vrecon;
#  4. `dpkg -r vrecon` removes the binary and keeps the store and the edited conffile.
# Needs root (chroot, mount). The chroot is kept in build-pkg/chroot for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --build-only debootstrap golang-go golang-github-vmware-govmomi-dev
bash scripts/package.sh
deb=$(ls build-pkg/vrecon_*_amd64.deb)
root=$PWD/build-pkg/chroot
fail() { echo "package-check: FAILED: $*" >&2; exit 1; }
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >build-pkg/debootstrap.log 2>&1 ||
    { tail -n 20 build-pkg/debootstrap.log; fail "debootstrap"; }
fi
mount -t proc proc "$root/proc"
vcsim_pid=
cleanup() {
  [ -n "$vcsim_pid" ] && kill "$vcsim_pid" 2>/dev/null || true
  umount "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root apt-get remove -y --purge vrecon >/dev/null 2>&1 || true
rm -rf "$root/var/lib/vrecon" "$root/etc/vrecon"
cp "$deb" "$root/tmp/vrecon.deb"
in_root apt-get update -qq
# Its Depends from Debian (versions dropped: apt takes bookworm's), then the package by dpkg -i.
depends=$(dpkg-deb -f "$deb" Depends | sed 's/([^)]*)//g; s/,/ /g')
# shellcheck disable=SC2086
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  $depends man-db systemd >build-pkg/apt.log 2>&1 || { tail -n 30 build-pkg/apt.log; fail "installing Depends"; }
in_root dpkg -i /tmp/vrecon.deb >>build-pkg/apt.log 2>&1 || { tail -n 30 build-pkg/apt.log; fail "dpkg -i"; }

echo "== installed"
in_root vrecon --version
in_root man -w vrecon | grep -q '/usr/share/man/man1/vrecon.1.gz' || fail "man -w vrecon"
in_root man -w vrecon-serve >/dev/null || fail "man -w vrecon-serve"
in_root systemd-analyze verify /lib/systemd/system/vrecon-collect.service \
  /lib/systemd/system/vrecon-collect-once.service /lib/systemd/system/vrecon-collect-once.timer ||
  fail "systemd-analyze verify"
in_root getent passwd vrecon >/dev/null || fail "no user vrecon"
[ "$(in_root stat -c %U:%a /var/lib/vrecon)" = vrecon:750 ] || fail "/var/lib/vrecon is not vrecon's, mode 750"

echo "== collect --once as vrecon against the vCenter simulator"
vcsim=build/tests/vcsim/vrecon_vcsim
if [ ! -x "$vcsim" ]; then
  mkdir -p build-pkg/vcsim
  GO111MODULE=off GOPROXY=off GOFLAGS= GOPATH=/usr/share/gocode:$PWD/build-pkg/vcsim/gopath \
    GOCACHE=$PWD/build-pkg/vcsim/gocache go build -o build-pkg/vcsim/vrecon_vcsim tests/vcsim/main.go
  vcsim=build-pkg/vcsim/vrecon_vcsim
fi
info=$(mktemp)
"$vcsim" -vms 3 -user svc-perf -password 's3cret!' -info "$info" >build-pkg/vcsim.log 2>&1 &
vcsim_pid=$!
for _ in $(seq 100); do grep -q '^pid=' "$info" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^url=//p' "$info")
[ -n "$url" ] || fail "the simulator did not start"
cp "$(sed -n 's/^ca_file=//p' "$info")" "$root/etc/vrecon/vcsim-ca.pem"
printf 's3cret!' >"$root/etc/vrecon/vcsim.pass"
in_root chown vrecon:vrecon /etc/vrecon/vcsim.pass
chmod 600 "$root/etc/vrecon/vcsim.pass"
# The user's edit of the conffile: a vCenter.
printf '\n[[vcenter]]\nname = "vcsim"\nurl = "%s"\nuser = "svc-perf"\npassword_file = "/etc/vrecon/vcsim.pass"\nca = "/etc/vrecon/vcsim-ca.pem"\n' \
  "$url" >>"$root/etc/vrecon/fleet.toml"
in_root runuser -u vrecon -- vrecon collect --config /etc/vrecon/fleet.toml --once || fail "collect --once"
[ "$(in_root stat -c %U /var/lib/vrecon/vrecon.db)" = vrecon ] || fail "the store is not vrecon's"
in_root runuser -u vrecon -- vrecon status --db /var/lib/vrecon/vrecon.db --format csv | tee build-pkg/status.csv
grep -q '^vcsim,vcenter,ok,' build-pkg/status.csv || fail "status: the vCenter's round is not ok"

echo "== dpkg -r"
in_root dpkg -r vrecon >/dev/null
[ ! -e "$root/usr/bin/vrecon" ] || fail "/usr/bin/vrecon is still there"
[ -s "$root/var/lib/vrecon/vrecon.db" ] || fail "the store went with the package"
grep -q 'name = "vcsim"' "$root/etc/vrecon/fleet.toml" || fail "the edited conffile went with the package"
echo "package-check: ok"
