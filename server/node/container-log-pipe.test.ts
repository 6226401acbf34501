import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCriRecord } from '../kube/cri-log';
import { containerLogFile, openContainerLog } from './container-log-pipe';

// a Pod dir inside a pods dir of our own: the FIFO pool sits beside the Pod dirs
const podsDir = mkdtempSync(join(tmpdir(), 'kv-pipe-'));
const dir = join(podsDir, 'uid-1');
mkdirSync(dir);
afterAll(() => rmSync(podsDir, { recursive: true, force: true }));

function run(container: string, script: string): Promise<void> {
  const fds = openContainerLog(dir, container);
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', fds.stdout, fds.stderr] });
  closeSync(fds.stdout);
  closeSync(fds.stderr);
  return new Promise((resolve) => child.on('exit', () => resolve()));
}

function records(container: string) {
  const file = containerLogFile(dir, container);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'latin1').split('\n').filter(Boolean).map((l) => parseCriRecord(Buffer.from(l, 'latin1'))!);
}

async function until<T>(read: () => T, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  return read();
}

describe('container output through the kubelet pipes', () => {
  it('tags stdout and stderr, F for whole lines and P for output without a newline', async () => {
    await run('a', 'echo out; sleep 0.05; echo err >&2; sleep 0.05; printf part');
    const got = await until(() => records('a'), (r) => r.length === 3);
    expect(got.map((r) => [r.stream, r.partial, r.content.toString()])).toEqual([['stdout', false, 'out'], ['stderr', false, 'err'], ['stdout', true, 'part']]);
    expect(got[0].ns <= got[1].ns && got[1].ns <= got[2].ns).toBe(true);
    expect(Math.abs(Date.now() - Number(got[0].ns / 1_000_000n))).toBeLessThan(10_000);
  });

  it('a restarted container appends to the same log through the same pipes', async () => {
    await run('b', 'echo first');
    await until(() => records('b'), (r) => r.length === 1);
    await run('b', 'echo second');
    const got = await until(() => records('b'), (r) => r.length === 2);
    expect(got.map((r) => r.content.toString())).toEqual(['first', 'second']);
  });
});
