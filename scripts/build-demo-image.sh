#!/bin/sh
# Builds the kubevirt-ts "demo" guest: Debian's cloud kernel + a busybox initramfs.
#   scripts/build-demo-image.sh [OUT_DIR]      (default $HOME/.cache/kubevirt-ts/demo)
# Produces OUT_DIR/{vmlinuz,initrd.gz,cmdline,image.json}. Idempotent: when the inputs
# (kernel package, busybox, the files under scripts/demo-image/) did not change, it does nothing.
# Needs Debian packages: busybox-static, cpio, gzip, apt (for `apt-get download`), dpkg, and
# qemu-system-x86 (whose libraries qemu-guest-agent links).
# Environment: DEMO_KERNEL_PACKAGE: the kernel package (linux-image-6.1.0-<n>-<flavour>), or a
# metapackage whose kernel to take (default linux-image-cloud-amd64; linux-image-amd64 gives
# Debian's standard kernel, which has the i6300esb watchdog driver: the "demo-watchdog" variant).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOTFS_SRC="$HERE/demo-image/rootfs"
MODULES_WANTED="$HERE/demo-image/modules.txt"
OUT=${1:-$HOME/.cache/kubevirt-ts/demo}
CACHE="$OUT/.cache"
BUSYBOX=/bin/busybox
CMDLINE="console=tty0 console=ttyS0,115200 quiet panic=-1"

die() { echo "build-demo-image: $*" >&2; exit 1; }
say() { echo "build-demo-image: $*" >&2; }

command -v cpio >/dev/null || die "cpio is missing (apt-get install cpio)"
[ -x "$BUSYBOX" ] || die "$BUSYBOX is missing (apt-get install busybox-static)"

mkdir -p "$OUT" "$CACHE"
exec 9>"$OUT/.lock"
flock 9

# A versioned kernel package: DEMO_KERNEL_PACKAGE itself, or what the metapackage it names (by
# default linux-image-cloud-amd64) depends on.
kernel_package() {
  want=${DEMO_KERNEL_PACKAGE:-linux-image-cloud-amd64}
  case "$want" in linux-image-[0-9]*) echo "$want"; return ;; esac
  apt-cache depends "$want" 2>/dev/null |
    sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1
}

# The newest cached .deb of the package, or a fresh `apt-get download` of it.
fetch_deb() {
  deb=$(ls "$CACHE/$1"_*.deb 2>/dev/null | tail -n 1 || true)
  if [ -z "$deb" ]; then
    say "downloading $1"
    (cd "$CACHE" && apt-get download "$1" >&2) || die "apt-get download $1 failed (run apt-get update?)"
    deb=$(ls "$CACHE/$1"_*.deb | tail -n 1)
  fi
  echo "$deb"
}

# A key over everything that shapes the image: rebuild only when it changes.
compute_build_key() {
  {
    for f in "$@"; do basename "$f"; done
    sha256sum "$BUSYBOX" | cut -d' ' -f1
    echo "$CMDLINE"
    cat "$0" "$MODULES_WANTED" "$HERE/demo-image/"*.sh
    (cd "$ROOTFS_SRC" && find . -type f | LC_ALL=C sort | xargs sha256sum)
  } | sha256sum | cut -c1-16
}

PKG=$(kernel_package)
if [ -z "$PKG" ] && [ "$(id -u)" -eq 0 ]; then
  say "no package lists yet: apt-get update"
  apt-get update -q >&2 || true
  PKG=$(kernel_package)
fi
[ -n "$PKG" ] || die "no kernel package found (apt-cache depends ${DEMO_KERNEL_PACKAGE:-linux-image-cloud-amd64} gave nothing)"
DEB=$(fetch_deb "$PKG")
AGENT_DEB=$(fetch_deb qemu-guest-agent)
SSH_DEBS="$(fetch_deb dropbear-bin) $(fetch_deb libtomcrypt1) $(fetch_deb libtommath1) $(fetch_deb openssh-sftp-server)"
# shellcheck disable=SC2086
KEY=$(compute_build_key "$DEB" "$AGENT_DEB" $SSH_DEBS)

if [ -f "$OUT/image.json" ] && grep -q "\"buildKey\": \"$KEY\"" "$OUT/image.json" &&
   [ -f "$OUT/vmlinuz" ] && [ -f "$OUT/initrd.gz" ] && [ -f "$OUT/cmdline" ]; then
  say "up to date ($OUT)"
  exit 0
fi

WORK=$(mktemp -d "$OUT/.build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
say "building from $(basename "$DEB")"
dpkg -x "$DEB" "$WORK/kernel"
KVER=$(ls "$WORK/kernel/lib/modules" | head -n 1)
[ -n "$KVER" ] || die "no modules in $DEB"

ROOT="$WORK/root"
mkdir -p "$ROOT"
cp -a "$ROOTFS_SRC/." "$ROOT/"
"$HERE/demo-image/install-busybox.sh" "$BUSYBOX" "$ROOT"
"$HERE/demo-image/install-modules.sh" "$WORK/kernel/lib/modules/$KVER" "$MODULES_WANTED" "$ROOT/lib/modules"
chmod 600 "$ROOT/etc/shadow"

# qemu-guest-agent (Debian's) and its libraries: a second, uncompressed archive appended to the
# gzip one (the kernel unpacks both; copying 6 MB costs less under TCG than gunzipping it)
AGENT_ROOT="$WORK/agent"
"$HERE/demo-image/install-guest-agent.sh" "$AGENT_DEB" "$AGENT_ROOT"
# dropbear (Debian's) for `virtctl ssh`, in the same archive
# shellcheck disable=SC2086
"$HERE/demo-image/install-dropbear.sh" "$AGENT_ROOT" $SSH_DEBS

find "$ROOT" "$AGENT_ROOT" -exec touch -h -d @1 {} +
(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -n -9 > "$WORK/initrd.gz"
# the next archive starts on a 4-byte boundary (the kernel skips the zero padding)
pad=$(( (4 - $(stat -c %s "$WORK/initrd.gz") % 4) % 4 ))
[ "$pad" -eq 0 ] || head -c "$pad" /dev/zero >> "$WORK/initrd.gz"
(cd "$AGENT_ROOT" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >> "$WORK/initrd.gz"
cp "$WORK/kernel/boot/vmlinuz-$KVER" "$WORK/vmlinuz"
echo "$CMDLINE" > "$WORK/cmdline"
cat > "$WORK/image.json" <<EOF
{
  "name": "demo",
  "buildKey": "$KEY",
  "kernelPackage": "$PKG",
  "kernelVersion": "$KVER",
  "kernel": "vmlinuz",
  "initrd": "initrd.gz",
  "cmdline": "$CMDLINE",
  "login": { "user": "root", "password": "" },
  "guestAgent": "$(basename "$AGENT_DEB")",
  "sshServer": "dropbear",
  "builtAt": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
EOF
for f in vmlinuz initrd.gz cmdline image.json; do mv -f "$WORK/$f" "$OUT/$f"; done
ls "$CACHE/$PKG"_*.deb | head -n -1 | xargs -r rm -f
for p in qemu-guest-agent dropbear-bin libtomcrypt1 libtommath1 openssh-sftp-server; do ls "$CACHE/$p"_*.deb | head -n -1 | xargs -r rm -f; done
say "done: $OUT (kernel $KVER, initrd $(du -k "$OUT/initrd.gz" | cut -f1) KiB)"
