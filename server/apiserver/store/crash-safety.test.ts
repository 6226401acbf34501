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

interface Run { acked: Array<[string, number]>; batches: number; writes: number }

/** Runs the writer until it acknowledged enough writes, kill -9s it, returns the acknowledged [key, revision]s. */
function writeUntilKilled(path: string, prefix: string, writers: number): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path, prefix, String(writers)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, KV_LOG_LEVEL: 'silent' },
  });
  const acked: Array<[string, number]> = [];
  const stats = { batches: 0, writes: 0 };
  let partial = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const [key, rev, writes] = line.split(' ');
        if (key === '#') Object.assign(stats, { batches: Number(rev), writes: Number(writes) });
        else acked.push([key, Number(rev)]);
      }
      if (acked.length >= ACKS_BEFORE_KILL) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && acked.length >= ACKS_BEFORE_KILL) resolve({ acked, ...stats });
      else reject(new Error(`writer ended early (signal ${signal}, ${acked.length} acks)`));
    });
  });
}

it('every acknowledged write survives kill -9 and revisions keep increasing, with one writer and with 16 sharing commits', async () => {
  const path = join(dir, 'state.db');
  let lastRevision = 0;
  for (const [round, writers] of [[1, 1], [2, 16], [3, 16]]) {
    const { acked, batches, writes } = await writeUntilKilled(path, `/crash/r${round}/`, writers);
    expect(Math.min(...acked.map(([, rev]) => rev))).toBeGreaterThan(lastRevision);
    // with 16 writers, commits really were shared (else this test would not cover group commit)
    if (writers > 1) expect(writes / batches).toBeGreaterThan(2);
    const store = openSqliteStore(path);
    try {
      const missing = acked.filter(([key, rev]) => store.get(key)?.modRevision !== rev);
      expect(missing).toEqual([]);
      lastRevision = Math.max(...acked.map(([, rev]) => rev));
      expect(store.currentRevision()).toBeGreaterThanOrEqual(lastRevision);
    } finally {
      store.close();
    }
  }
}, 60_000);
