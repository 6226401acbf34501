#!/bin/sh
# install-guest-agent.sh DEB ROOT: Debian's qemu-guest-agent into the demo initramfs: qemu-ga from
# the package, and the shared libraries it links (ldd on the unpacked binary resolves them from
# this machine's Debian, the same release and architecture), plus the dynamic loader.
set -eu
DEB=$1; ROOT=$2
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
dpkg -x "$DEB" "$STAGE"
mkdir -p "$ROOT/usr/sbin"
cp "$STAGE/usr/sbin/qemu-ga" "$ROOT/usr/sbin/qemu-ga"
ldd "$STAGE/usr/sbin/qemu-ga" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }' | while read -r lib; do
  [ -f "$lib" ] || { echo "install-guest-agent: $lib not found (install qemu-system-x86 first)" >&2; exit 1; }
  mkdir -p "$ROOT$(dirname "$lib")"
  cp -L "$lib" "$ROOT$lib"
done
# the loader's canonical path (what the binary's PT_INTERP names)
if [ ! -e "$ROOT/lib64/ld-linux-x86-64.so.2" ]; then
  mkdir -p "$ROOT/lib64"
  cp -L /lib64/ld-linux-x86-64.so.2 "$ROOT/lib64/ld-linux-x86-64.so.2"
fi
