#!/usr/bin/env bash
# `npm run test:cluster`: kubevirt-ts installed from deploy/ onto `kv up --bare --nodes 2`, then the
# console journey in Chromium against it (playwright.cluster.config.ts, e2e/cluster-journey.*).
# The console Deployment serves the Next build, as the image's Dockerfile builds it: built here once.
# Needs the pod network (host-wide): run it when no other `kv up` runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
[ -f .next/BUILD_ID ] || npx next build
node bin/kv.mjs bundle
npx playwright test -c playwright.cluster.config.ts "$@"
