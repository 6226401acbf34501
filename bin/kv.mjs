#!/usr/bin/env node
// The `kv` command. Runs the prebuilt bundle (bin/kv-bundle.mjs: no transpiling, which a launcher
// Pod's start time cannot afford) when the cluster pinned one or a fresh one exists, otherwise loads
// the TypeScript CLI through tsx. KV_NO_BUNDLE=1 always uses tsx.
// `kv up` without a fresh bundle (the first start after a source changed) builds it first, in a
// short-lived `kv bundle` child, then runs from it: the supervisor lives as long as its cluster, and
// through tsx it would keep tsx's esbuild service and the transpiled sources (~50 MiB) all that time.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleEntry } from './kv-bundle.mjs';

let bundle = bundleEntry();
if (!bundle && process.argv[2] === 'up' && process.env.KV_NO_BUNDLE !== '1') {
  // its log line (stdout) is not kv up's output; a failed build shows on stderr, and kv up then runs through tsx
  spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'bundle'], { stdio: ['ignore', 'ignore', 'inherit'] });
  bundle = bundleEntry();
}
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../server/cli.ts');
}
