#!/usr/bin/env bash
# Installs everything kubevirt-ts needs on a Debian machine and builds it. Idempotent: a second run
# only checks. System packages come from apt-get, npm packages from `npm install` (not `npm ci`:
# this registry cannot list other platforms' optional binaries in the lockfile).
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(qemu-system-x86 qemu-utils qemu-block-extra busybox-static ovmf genisoimage cpio util-linux chromium fonts-dejavu-core iproute2 nftables iputils-ping openssh-client swtpm swtpm-tools)

missing=()
for p in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing system packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

echo "setup: npm install"
# native addons (better-sqlite3) build against the system's Node headers: no header download needed
if [ -f /usr/include/node/node.h ] && [ -z "${npm_config_nodedir:-}" ]; then export npm_config_nodedir=/usr; fi
npm install --no-fund --no-audit --loglevel=error

echo "setup: kv bundle (launcher Pods start without transpiling)"
node bin/kv.mjs bundle

echo "setup: demo guest image"
bash scripts/build-demo-image.sh
echo "setup: demo-watchdog guest image (Debian's standard kernel, for e2e/watchdog.test.ts)"
DEMO_KERNEL_PACKAGE=linux-image-amd64 bash scripts/build-demo-image.sh "$HOME/.cache/kubevirt-ts/demo-watchdog"

echo "setup: building the console"
NEXT_TELEMETRY_DISABLED=1 npx next build >/tmp/kubevirt-ts-next-build.log 2>&1 || { tail -50 /tmp/kubevirt-ts-next-build.log; exit 1; }
echo "setup: done"
