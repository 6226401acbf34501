/**
 * Builds the `kv` bundle (see bin/kv-bundle.mjs): server/cli.ts with code splitting, so each
 * subcommand loads only its own chunks. npm packages stay external, imported by the absolute URL
 * they resolve to from this project (except BUNDLED_PACKAGES, built in), and a source's `import.meta.url` / `dirname` / `filename`
 * are replaced by its own location: the bundle runs from any directory (a cluster's data dir)
 * and paths computed relative to a source (CRDs, bin/kv.mjs, scripts) stay right.
 * Each build goes to a new directory and is published by renaming `current.json` over the old one,
 * so concurrent builders and starting processes never see half a bundle.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { BUNDLE_ROOT, fileStamp, MANIFEST_FILE, PROJECT_DIR, resolvePackage, type FileStamp } from '../../bin/kv-bundle.mjs';

const ENTRY = 'server/cli.ts';
/** Files that change how sources compile without being imported. */
const CONFIG_INPUTS = ['tsconfig.json', 'package.json'];
/**
 * Old builds are removed once they are this old: a process reads all its chunks while starting
 * (long-lived clusters run a pinned copy, see pin-bundle.ts), so minutes are plenty.
 */
const KEEP_OLD_BUILDS_MS = 10 * 60_000;
const LOADERS: Record<string, 'ts' | 'tsx' | 'js'> = { '.ts': 'ts', '.tsx': 'tsx', '.mjs': 'js' };
/**
 * npm packages built into the bundle (with the packages they require) instead of imported from
 * node_modules. pino: every `kv` process logs, a launcher Pod too; as an external it is 29 CommonJS
 * files that Node's loader finds, reads and compiles one by one — +7.8 MiB RSS, +2.4 MiB USS and
 * 30–45 ms in every process; built in, +2.3 / +0.9 MiB and ~14 ms (docs/performance.md, "Launcher start").
 * yaml (the API server, virt-api and `kv up` itself read YAML): as an external 75 CommonJS files,
 * +8.4 MiB RSS, +3.7 MiB USS and 50–100 ms in a bare process; built in, +1.6 / +0.9 MiB and ~18 ms
 * (docs/performance.md, "Footprint").
 */
const BUNDLED_PACKAGES = new Set(['pino', 'yaml']);
/**
 * Built-in CommonJS code calls `require` for Node's own modules ('node:os'); an ESM chunk has no
 * `require`, so each chunk gets one (esbuild's require shim uses it when it exists). The chunk's
 * own URL is spelled in pieces: this file is bundled too, and the plugin below rewrites that name.
 */
const CHUNK_URL = ['import', 'meta', 'url'].join('.');
const REQUIRE_BANNER = `import { createRequire as __kvCreateRequire } from 'node:module';\nconst require = __kvCreateRequire(${CHUNK_URL});`;

export interface BundleManifest {
  projectDir: string;
  /** entry file, relative to the bundle root */
  entry: string;
  builtAt: string;
  /** project-relative source path → [mtimeMs, size] when built ([0, 0]: changed during the build) */
  inputs: Record<string, FileStamp>;
}

export interface BuildOptions { projectDir?: string; root?: string }

const isBareSpecifier = (s: string) => !/^(\.|\/|node:)/.test(s);
/** 'pino' of 'pino', 'pino/file'; '@scope/name' of '@scope/name/x' */
export const packageName = (s: string) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/');

/**
 * esbuild plugin: a project source's `import.meta.{url,dirname,filename}` become its own path,
 * an npm package import becomes an external import of its resolved file URL (a BUNDLED_PACKAGES
 * one and whatever it requires are left to esbuild, which builds them in), and bin/kv-bundle.mjs
 * stays the project's own file (it resolves packages and finds builds relative to itself).
 */
function sourceLocationPlugin(projectDir: string): Plugin {
  return {
    name: 'kv-source-location',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.path.endsWith('/kv-bundle.mjs')) return { path: pathToFileURL(join(args.resolveDir, args.path)).href, external: true };
        if (args.kind === 'entry-point' || !isBareSpecifier(args.path) || args.path.startsWith('@/')) return undefined;
        if (BUNDLED_PACKAGES.has(packageName(args.path)) || args.importer.includes('/node_modules/')) return undefined;
        return { path: resolvePackage(args.path), external: true };
      });
      b.onLoad({ filter: /\.(ts|tsx|mjs)$/ }, async (args) => {
        if (!args.path.startsWith(projectDir) || args.path.includes('/node_modules/')) return undefined;
        const text = await readFile(args.path, 'utf8');
        const contents = text
          .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
          .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)))
          .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
        return { contents, loader: LOADERS[extname(args.path)] };
      });
    },
  };
}

/** Stamps of every input; a file modified after `since` gets [0, 0] so the next check rebuilds. */
function stampInputs(projectDir: string, rels: string[], since: number): Record<string, FileStamp> {
  const inputs: Record<string, FileStamp> = {};
  for (const rel of rels) {
    const s = fileStamp(join(projectDir, rel));
    inputs[rel] = s && s[0] < since ? s : [0, 0];
  }
  return inputs;
}

async function pruneOldBuilds(root: string, keep: string): Promise<void> {
  for (const name of await readdir(root)) {
    if (name === keep || !name.startsWith('b-')) continue;
    const st = await stat(join(root, name)).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > KEEP_OLD_BUILDS_MS) await rm(join(root, name), { recursive: true, force: true });
  }
}

/** Builds and publishes a new bundle; returns its manifest. */
export async function buildKvBundle(opts: BuildOptions = {}): Promise<BundleManifest> {
  const projectDir = opts.projectDir ?? PROJECT_DIR;
  const root = opts.root ?? BUNDLE_ROOT;
  const esbuild = await import('esbuild');
  const startedAt = Date.now() - 1; // mtimes can be a little behind the wall clock's ms
  const dir = `b-${startedAt.toString(36)}-${process.pid}`;
  const outdir = join(root, dir);
  await mkdir(outdir, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: projectDir,
    entryPoints: { cli: ENTRY },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20',
    metafile: true, logLevel: 'silent',
    banner: { js: REQUIRE_BANNER },
    plugins: [sourceLocationPlugin(projectDir)],
  }).finally(() => esbuild.stop()); // no idle esbuild service left beside a long-running kubelet
  const sources = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/'));
  const manifest: BundleManifest = {
    projectDir, entry: join(dir, 'cli.mjs'), builtAt: new Date().toISOString(),
    inputs: stampInputs(projectDir, [...CONFIG_INPUTS, ...sources.map((p) => relative(projectDir, join(projectDir, p)))], startedAt),
  };
  const tmp = join(root, `${MANIFEST_FILE}.${process.pid}.tmp`);
  await writeFile(tmp, `${JSON.stringify(manifest)}\n`);
  await rename(tmp, join(root, MANIFEST_FILE));
  await pruneOldBuilds(root, dir);
  return manifest;
}
