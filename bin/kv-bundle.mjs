/**
 * The prebuilt `kv` bundle: server/cli.ts and everything it loads, built by esbuild
 * (server/bundle/build-bundle.ts) into ESM chunks under node_modules/.cache/kubevirt-ts/kv/, so a
 * launcher Pod (and every other `kv` process) starts without tsx transpiling its sources.
 * `current.json` names the build and the size + mtime of every source it read; the bundle is used
 * only while all of them are unchanged. `kv up` pins one build for its whole cluster (a copy in
 * the data dir, named by KV_BUNDLE), like a cluster running one release: every component and
 * launcher Pod of that cluster runs the same code, even while the sources are being edited.
 * Plain JavaScript: bin/kv.mjs reads it before tsx exists.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_ROOT = join(PROJECT_DIR, 'node_modules', '.cache', 'kubevirt-ts', 'kv');
export const MANIFEST_FILE = 'current.json';

/**
 * The URL an npm package import resolves to from this project (Node's ESM rules). Lives here,
 * outside the bundle, so it resolves from the project wherever the bundle runs.
 */
export function resolvePackage(specifier) {
  return import.meta.resolve(specifier);
}

/** `mtimeMs` and `size` of a file, as the manifest records them; undefined when it is missing. */
export function fileStamp(path) {
  try {
    const st = statSync(path);
    return [st.mtimeMs, st.size];
  } catch {
    return undefined;
  }
}

/** The entry to run: the cluster's pinned build (KV_BUNDLE), else a fresh shared build, else undefined (tsx). */
export function bundleEntry(env = process.env) {
  if (env.KV_NO_BUNDLE === '1') return undefined;
  if (env.KV_BUNDLE && fileStamp(env.KV_BUNDLE)) return env.KV_BUNDLE;
  return freshBundleEntry();
}

/** Absolute path of the bundle's entry when it was built here from exactly today's sources; else undefined. */
export function freshBundleEntry(root = BUNDLE_ROOT, projectDir = PROJECT_DIR) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, MANIFEST_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (manifest?.projectDir !== projectDir || typeof manifest.entry !== 'string' || typeof manifest.inputs !== 'object') return undefined;
  for (const [rel, stamp] of Object.entries(manifest.inputs)) {
    const now = fileStamp(join(projectDir, rel));
    if (!now || !Array.isArray(stamp) || now[0] !== stamp[0] || now[1] !== stamp[1]) return undefined;
  }
  const entry = join(root, manifest.entry);
  return fileStamp(entry) ? entry : undefined;
}
