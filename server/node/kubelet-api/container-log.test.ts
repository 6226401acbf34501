import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLogQuery, streamLog, tailOffset, type LogQuery } from './container-log';

const dir = mkdtempSync(join(tmpdir(), 'kv-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

async function read(path: string, query: Partial<LogQuery>, isRunning = () => false): Promise<string> {
  const parts: Buffer[] = [];
  await streamLog(path, { follow: false, ...query }, { write: (b) => parts.push(b) }, { isRunning, signal: new AbortController().signal, pollMs: 10 });
  return Buffer.concat(parts).toString();
}

describe('container log reading', () => {
  const log = file('a.log', 'one\ntwo\nthree\n');

  it.each([
    [undefined, 'one\ntwo\nthree\n'],
    [0, ''],
    [1, 'three\n'],
    [2, 'two\nthree\n'],
    [9, 'one\ntwo\nthree\n'],
  ])('tailLines %s', async (tailLines, want) => {
    expect(await read(log, { tailLines })).toBe(want);
  });

  it('counts a last line without a newline as a line', async () => {
    expect(await read(file('b.log', 'one\ntwo\nlogin: '), { tailLines: 1 })).toBe('login: ');
  });

  it('finds the tail across read chunks', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const p = file('big.log', lines);
    const off = tailOffset(p, Buffer.byteLength(lines), 3);
    expect(lines.slice(off)).toBe('line 19997\nline 19998\nline 19999\n');
  });

  it('stops at limitBytes', async () => {
    expect(await read(log, { limitBytes: 5 })).toBe('one\nt');
  });

  it('an absent file is an empty log', async () => {
    expect(await read(join(dir, 'none.log'), {})).toBe('');
  });

  it('follows what is appended until the container stops, and restarts from 0 when the file is rewritten shorter', async () => {
    const p = file('f.log', 'a\n');
    let running = true;
    const parts: string[] = [];
    const done = streamLog(p, { follow: true }, { write: (b) => parts.push(b.toString()) }, { isRunning: () => running, signal: new AbortController().signal, pollMs: 10 });
    await new Promise((r) => setTimeout(r, 40));
    appendFileSync(p, 'b\n');
    await new Promise((r) => setTimeout(r, 40));
    writeFileSync(p, 'c\n'); // rewritten shorter
    await new Promise((r) => setTimeout(r, 40));
    running = false;
    await done;
    expect(parts.join('')).toBe('a\nb\nc\n');
  });

  it('a follower ends when the client goes', async () => {
    const p = file('g.log', 'x\n');
    const abort = new AbortController();
    const done = streamLog(p, { follow: true }, { write: () => undefined }, { isRunning: () => true, signal: abort.signal, pollMs: 10 });
    abort.abort();
    await expect(done).resolves.toBeUndefined();
  });

  it('parses and bounds the query', () => {
    expect(parseLogQuery(new URLSearchParams('follow=true&tailLines=3&limitBytes=10'))).toEqual({ follow: true, tailLines: 3, limitBytes: 10 });
    expect(parseLogQuery(new URLSearchParams('tailLines=-1'))).toEqual({ error: 'tailLines must be a non-negative integer' });
    expect(parseLogQuery(new URLSearchParams('limitBytes=0'))).toEqual({ error: 'limitBytes must be a positive integer' });
  });
});
