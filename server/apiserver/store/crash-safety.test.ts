import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store';

const WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
const ACKS_BEFORE_KILL = 300;
const dir = mkdtempSync(join(tmpdir(), 'kv-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until it acknowledged enough writes, kill -9s it, returns the acknowledged [key, revision]s. */
function writeUntilKilled(path: string, prefix: string): Promise<Array<[string, number]>> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path, prefix], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, KV_LOG_LEVEL: 'silent' },
  });
  const acked: Array<[string, number]> = [];
  let partial = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const [key, rev] = line.split(' ');
        acked.push([key, Number(rev)]);
      }
      if (acked.length >= ACKS_BEFORE_KILL) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && acked.length >= ACKS_BEFORE_KILL) resolve(acked);
      else reject(new Error(`writer ended early (signal ${signal}, ${acked.length} acks)`));
    });
  });
}

it('every acknowledged write survives kill -9 and revisions keep increasing', async () => {
  const path = join(dir, 'state.db');
  let lastRevision = 0;
  for (const round of [1, 2]) {
    const acked = await writeUntilKilled(path, `/crash/r${round}/`);
    expect(acked[0][1]).toBeGreaterThan(lastRevision);
    const store = openSqliteStore(path);
    try {
      const missing = acked.filter(([key, rev]) => store.get(key)?.modRevision !== rev);
      expect(missing).toEqual([]);
      lastRevision = acked[acked.length - 1][1];
      expect(store.currentRevision()).toBeGreaterThanOrEqual(lastRevision);
    } finally {
      store.close();
    }
  }
}, 60_000);
