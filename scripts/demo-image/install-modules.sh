#!/bin/sh
# install-modules.sh MODDIR WANTED_LIST DEST: copies the wanted kernel modules and their
# dependencies from MODDIR (lib/modules/<version> of the kernel package) into DEST, and writes
# DEST/load-order.<stage> (paths relative to DEST, dependencies first) for the guest to insmod.
# WANTED_LIST lines are "<stage> <module> [optional]"; a module's dependencies join its stage unless
# an earlier stage already has them; an optional module the kernel does not have is left out.
set -eu
MODDIR=$1; WANTED=$2; DEST=$3
mkdir -p "$DEST"
INDEX=$(mktemp); DONE=$(mktemp)
trap 'rm -f "$INDEX" "$DONE"' EXIT

# "name path" for every module; a module's name uses "_" where its file name may use "-".
(cd "$MODDIR" && find kernel -name '*.ko' | while read -r p; do
  n=$(basename "$p" .ko | tr - _); echo "$n $p"
done) > "$INDEX"

module_path() { awk -v n="$1" '$1 == n { print $2; exit }' "$INDEX"; }
module_deps() { tr '\000' '\n' < "$MODDIR/$1" | sed -n 's/^depends=//p' | tr , ' ' | tr - _; }

# add_module STAGE NAME [optional]
add_module() {
  local p d
  grep -qx "$2" "$DONE" && return 0
  p=$(module_path "$2")
  if [ -z "$p" ] && [ "${3:-}" = optional ]; then echo "install-modules: no module $2 (optional)" >&2; return 0; fi
  [ -n "$p" ] || { echo "install-modules: no module $2" >&2; exit 1; }
  echo "$2" >> "$DONE"
  for d in $(module_deps "$p"); do add_module "$1" "$d"; done
  mkdir -p "$DEST/$(dirname "$p")"
  cp "$MODDIR/$p" "$DEST/$p"
  echo "$p" >> "$DEST/load-order.$1"
}

grep -v '^#' "$WANTED" | grep -v '^ *$' | while read -r stage m opt; do add_module "$stage" "$m" "$opt"; done
