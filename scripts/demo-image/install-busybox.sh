#!/bin/sh
# install-busybox.sh BUSYBOX ROOT: copies the static busybox into ROOT/bin and links every applet.
set -eu
BUSYBOX=$1; ROOT=$2
mkdir -p "$ROOT/bin" "$ROOT/sbin" "$ROOT/usr/bin" "$ROOT/usr/sbin" "$ROOT/proc" "$ROOT/sys" \
  "$ROOT/dev" "$ROOT/tmp" "$ROOT/root" "$ROOT/var/log" "$ROOT/var/run" "$ROOT/run"
cp "$BUSYBOX" "$ROOT/bin/busybox"
"$BUSYBOX" --list-full | while read -r applet; do
  [ -e "$ROOT/$applet" ] || [ -L "$ROOT/$applet" ] && continue
  up=$(echo "$applet" | sed 's|[^/]*/|../|g; s|[^/]*$||')
  ln -s "${up}bin/busybox" "$ROOT/$applet"
done
chmod 1777 "$ROOT/tmp"
