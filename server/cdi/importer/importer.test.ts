import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { parseChecksum, readImportJob } from './importer-env';
import { SparseFileWriter } from './sparse-writer';

const dir = mkdtempSync(join(tmpdir(), 'kv-importer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('importer', () => {
  it('writes zeros as holes and data as data, to the full length', async () => {
    const data = Buffer.alloc(4 << 20);
    data.write('start', 0);
    data.write('end', data.length - 3);
    const file = join(dir, 'sparse.img');
    let seen = 0;
    await pipeline(Readable.from([data.subarray(0, 1 << 20), data.subarray(1 << 20)]), new SparseFileWriter(file, (c) => { seen += c.length; }));
    expect(seen).toBe(data.length);
    expect(readFileSync(file).equals(data)).toBe(true);
    expect(statSync(file).blocks * 512).toBeLessThan(1 << 20); // two 64 KiB blocks of data, the rest holes
  });

  it('reads its job from the environment, refusing what it cannot do', () => {
    expect(readImportJob({ IMPORTER_SOURCE: 'http', IMPORTER_ENDPOINT: 'http://x/a.qcow2', IMPORTER_IMAGE_SIZE: '1024', IMPORTER_CHECKSUM: 'sha256:AB' }, '/v', '/p'))
      .toEqual({ source: 'http', endpoint: 'http://x/a.qcow2', sizeBytes: 1024, podDir: '/p', checksum: { algorithm: 'sha256', hex: 'ab' }, target: '/v/cdi-data-vol', sourcePath: undefined });
    expect(() => readImportJob({ IMPORTER_SOURCE: 'ftp', IMPORTER_IMAGE_SIZE: '1' }, '/v', '/p')).toThrow('IMPORTER_SOURCE must be one of http, blank, pvc, registry, upload');
    expect(() => readImportJob({ IMPORTER_SOURCE: 'http', IMPORTER_IMAGE_SIZE: '1' }, '/v', '/p')).toThrow('IMPORTER_ENDPOINT is required for source http');
    expect(() => parseChecksum('crc32:00')).toThrow('invalid checksum');
  });
});
