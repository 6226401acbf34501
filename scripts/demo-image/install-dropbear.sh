#!/bin/sh
# install-dropbear.sh ROOT DEB...: Debian's dropbear SSH server into the demo initramfs: the server
# binary from dropbear-bin, OpenSSH's sftp-server (what dropbear runs for scp and sftp, at the path
# Debian's dropbear names), and the shared libraries they link, taken from the unpacked packages
# (libtomcrypt, libtommath) or else from this machine's Debian (same release and architecture).
set -eu
ROOT=$1; shift
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
for deb in "$@"; do dpkg -x "$deb" "$STAGE"; done
mkdir -p "$ROOT/usr/sbin" "$ROOT/usr/lib"
cp "$STAGE/usr/sbin/dropbear" "$ROOT/usr/sbin/dropbear"
cp "$STAGE/usr/lib/openssh/sftp-server" "$ROOT/usr/lib/sftp-server"
LD_LIBRARY_PATH="$STAGE/usr/lib/x86_64-linux-gnu:$STAGE/lib/x86_64-linux-gnu" ldd "$STAGE/usr/sbin/dropbear" "$STAGE/usr/lib/openssh/sftp-server" |
  awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }' | while read -r lib; do
  [ -f "$lib" ] || { echo "install-dropbear: $lib not found" >&2; exit 1; }
  dest=${lib#"$STAGE"}
  mkdir -p "$ROOT$(dirname "$dest")"
  cp -L "$lib" "$ROOT$dest"
done
if [ ! -e "$ROOT/lib64/ld-linux-x86-64.so.2" ]; then
  mkdir -p "$ROOT/lib64"
  cp -L /lib64/ld-linux-x86-64.so.2 "$ROOT/lib64/ld-linux-x86-64.so.2"
fi
