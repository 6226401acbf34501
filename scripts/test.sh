#!/usr/bin/env bash
# Quick start, command 2: every test. Type-check, unit and integration tests (vitest, real API
# server and real QEMU), then the browser journey (Playwright with Debian's chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
echo "== typecheck"
npx tsc --noEmit -p .
echo "== lint (module boundaries, complexity budget)"
npx eslint --quiet .
echo "== unit tests"
npx vitest run --project unit
echo "== integration tests (whole clusters, real QEMU guests)"
npx vitest run --project integration
if [ -d e2e ] && ls e2e/*.spec.ts >/dev/null 2>&1; then
  echo "== e2e"
  [ -d .next ] || npx next build
  npx playwright test
fi
