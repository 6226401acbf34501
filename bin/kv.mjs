#!/usr/bin/env node
// The `kv` command. Runs the prebuilt bundle (bin/kv-bundle.mjs: no transpiling, which a launcher
// Pod's start time cannot afford) when the cluster pinned one or a fresh one exists, otherwise loads
// the TypeScript CLI through tsx. KV_NO_BUNDLE=1 always uses tsx.
import { pathToFileURL } from 'node:url';
import { bundleEntry } from './kv-bundle.mjs';

const bundle = bundleEntry();
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../server/cli.ts');
}
