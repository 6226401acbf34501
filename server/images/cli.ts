/**
 * `kv images`: the local image store from the command line.
 *   kv images import NAME FILE [--replace] [--kernel F --initrd F --cmdline S]
 *   kv images pull REF [--pull-policy Always|IfNotPresent|Never] [--auth-file DOCKER_CONFIG_JSON]
 *   kv images ls [-o json]
 *   kv images build-demo [--build-dir DIR]
 * All take --data-dir DIR (default $KV_DATA_DIR or ~/.kubevirt-ts).
 */
import { parseArgs } from 'node:util';
import { dataPaths, defaultDataDir } from '../data-dir';
import { buildDemoImage, defaultDemoBuildDir } from './demo-build';
import { readFileSync } from 'node:fs';
import { importDemoImage, importImage, listImages, type StoredImage } from './image-store';
import { ensureImage } from './image-pull';

const USAGE = `usage:
  kv images import NAME FILE [--replace] [--kernel FILE --initrd FILE --cmdline ARGS]
  kv images pull REF [--pull-policy Always|IfNotPresent|Never] [--auth-file FILE]
      (FILE: a docker config.json with "auths"; http for loopback and KV_INSECURE_REGISTRIES hosts)
  kv images ls [-o json]
  kv images build-demo [--build-dir DIR]
flags: --data-dir DIR (default ${defaultDataDir()})
`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  'build-dir': { type: 'string' },
  replace: { type: 'boolean' },
  kernel: { type: 'string' },
  initrd: { type: 'string' },
  cmdline: { type: 'string' },
  'pull-policy': { type: 'string' },
  'auth-file': { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runImagesCommand(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [verb, ...args] = positionals;
  if (values.help || !verb) {
    process.stdout.write(USAGE);
    return;
  }
  const imagesDir = dataPaths(values['data-dir'] ?? defaultDataDir()).images;
  try {
    await runVerb(verb, args, values, imagesDir);
  } catch (err) {
    fail(`kv images ${verb}: ${(err as Error).message}`);
  }
}

interface ImagesFlags { 'pull-policy'?: string; 'auth-file'?: string; 'build-dir'?: string; replace?: boolean; kernel?: string; initrd?: string; cmdline?: string; output?: string }

async function runVerb(verb: string, args: string[], values: ImagesFlags, imagesDir: string): Promise<void> {
  switch (verb) {
    case 'import': {
      if (args.length !== 2) fail(USAGE);
      const { kernel, initrd, cmdline, replace } = values;
      const entry = await importImage(imagesDir, args[0], args[1], { replace, kernel, initrd, cmdline });
      process.stdout.write(`imported ${entry.name} (${entry.format}) into ${entry.dir}\n`);
      return;
    }
    case 'pull': {
      if (args.length !== 1) fail(USAGE);
      const auths = values['auth-file'] ? [(JSON.parse(readFileSync(values['auth-file'], 'utf8')) as { auths?: Record<string, object> }).auths ?? {}] : [];
      const r = await ensureImage(imagesDir, args[0], { policy: values['pull-policy'] ?? 'Always', auths });
      const what = !r.digest ? `${r.entry.name} (imported, not from a registry)` : r.entry.name.includes('@') ? r.entry.name : `${r.entry.name}@${r.digest}`;
      process.stdout.write(`${r.pulled ? `pulled ${what} (${r.blobsDownloaded} new layer${r.blobsDownloaded === 1 ? '' : 's'})` : `${what} is up to date`}\n`);
      return;
    }
    case 'ls':
      process.stdout.write(values.output === 'json' ? JSON.stringify(listImages(imagesDir), null, 2) + '\n' : formatTable(listImages(imagesDir)));
      return;
    case 'build-demo': {
      const buildDir = await buildDemoImage({ buildDir: values['build-dir'] ?? defaultDemoBuildDir() });
      const entry = await importDemoImage(imagesDir, buildDir);
      process.stdout.write(`demo image ready: ${entry.name} in ${entry.dir}\n`);
      return;
    }
    default:
      fail(`unknown verb ${verb}\n${USAGE}`);
  }
}

export function formatTable(images: StoredImage[]): string {
  const rows = [['NAME', 'FORMAT', 'SIZE', 'BOOT', 'DIGEST', 'IMPORTED']];
  for (const i of images) {
    rows.push([i.name, i.format, formatSize(i.sizeBytes), i.kernel ? 'kernel' : 'disk', i.digest ? i.digest.slice(0, 19) : '-', i.importedAt]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join('   ').trimEnd()).join('\n') + '\n';
}

function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v < 10 && u > 0 ? v.toFixed(1) : Math.round(v)}${units[u]}`;
}

function fail(message: string): never {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  process.exit(2);
}
