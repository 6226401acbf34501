/**
 * KubeVirt's containerDisk layout: the image's filesystem holds the disk as the one file in
 * `/disk/` (KubeVirt's container-disk GetImage refuses a folder with more than one). Layers (tar, optionally gzip) are applied in order; OCI whiteouts under `/disk/`
 * (`.wh.<name>` and the opaque `.wh..wh..opq`) remove what earlier layers put there. Files are
 * written straight into `outDir`; what a later layer replaces or whites out is deleted.
 */
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import { RegistryError } from './registry-error';

export const DISK_DIR = 'disk';
const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';

export interface ExtractedDisk { file: string; name: string }

/** `./disk/x.qcow2`, `/disk/x.qcow2`, `disk/x.qcow2` → `x.qcow2`; undefined outside /disk/ or deeper. */
export function diskEntryName(entry: string): string | undefined {
  const parts = entry.replace(/^(\.\/|\/)+/, '').split('/').filter((p) => p !== '' && p !== '.');
  return parts.length === 2 && parts[0] === DISK_DIR && parts[1] !== '..' ? parts[1] : undefined;
}

async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** Applies one layer to `files` (name → path in outDir). */
async function applyLayer(layer: string, index: number, outDir: string, files: Map<string, string>): Promise<void> {
  const ex = tarExtract();
  const drop = async (name: string) => {
    const p = files.get(name);
    files.delete(name);
    if (p) await rm(p, { force: true });
  };
  ex.on('entry', (header, stream, next) => {
    const name = diskEntryName(header.name);
    const done = (err?: unknown) => (err ? next(err as Error) : next());
    if (!name) { stream.on('end', () => done()).resume(); return; }
    void (async () => {
      if (name === OPAQUE) { for (const n of [...files.keys()]) await drop(n); stream.resume(); return; }
      if (name.startsWith(WHITEOUT)) { await drop(name.slice(WHITEOUT.length)); stream.resume(); return; }
      await drop(name);
      if (header.type !== 'file' && header.type !== 'contiguous-file') { stream.resume(); return; }
      const path = join(outDir, `layer${index}-${name}`);
      await pipeline(stream, createWriteStream(path, { mode: 0o644 }));
      files.set(name, path);
    })().then(() => done(), done);
  });
  const source = createReadStream(layer);
  if (await isGzip(layer)) await pipeline(source, createGunzip(), ex);
  else await pipeline(source, ex);
}

/** The containerDisk's disk file, extracted from the image's layers (first layer first). */
export async function extractDisk(layers: string[], outDir: string): Promise<ExtractedDisk> {
  const files = new Map<string, string>();
  for (const [i, layer] of layers.entries()) {
    try {
      await applyLayer(layer, i, outDir, files);
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      throw new RegistryError('ManifestInvalid', `layer ${i + 1} is not a readable tar (gzip or uncompressed): ${(err as Error).message}`);
    }
  }
  const names = [...files.keys()].sort();
  if (names.length === 0) throw new RegistryError('NoDisk', 'no disk found: the image has no file in /disk/ (a containerDisk image holds its disk as /disk/<file>)');
  if (names.length > 1) throw new RegistryError('NoDisk', `more than one file found in /disk/ (${names.join(', ')}), only one disk is allowed`);
  return { name: names[0], file: files.get(names[0])! };
}
