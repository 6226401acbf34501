#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, then bring the whole system up (`kv up`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node bin/kv.mjs up "$@"
