#!/usr/bin/env bash
# Quick start, command 2: every test. Type-check and lint, unit tests, integration tests (whole
# `kv up` clusters with real QEMU guests), then the browser journey (Playwright, Debian's chromium),
# on `kv up` and on kubevirt-ts installed from deploy/ onto `kv up --bare`.
# Ends with one line: "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
reports=.test-reports
rm -rf "$reports" && mkdir -p "$reports"

echo "== typecheck"
npx tsc --noEmit -p .
echo "== lint (module boundaries, complexity budget, no new any)"
npx eslint --quiet .
node scripts/lint/any-budget.mjs
echo "== unit tests"
npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$reports/unit.json"
echo "== integration tests (whole clusters, real QEMU guests)"
npx vitest run --project integration --reporter=default --reporter=json --outputFile.json="$reports/integration.json"
echo "== browser e2e"
[ -d .next ] || npx next build
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/e2e.json" npx playwright test --reporter=list,json
echo "== browser journey against kubevirt-ts installed from deploy/ onto kv up --bare (npm run test:cluster)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/e2e-cluster.json" npx playwright test -c playwright.cluster.config.ts --reporter=list,json
node scripts/test-summary.mjs "$reports"
