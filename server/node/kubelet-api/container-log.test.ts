import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCriChunk } from '../../kube/cri-log';
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

  it('a follower still gets what reaches the file just after the container stopped', async () => {
    const p = file('late.log', 'a\n');
    let calls = 0;
    const isRunning = () => {
      if (++calls === 2) setTimeout(() => appendFileSync(p, 'last words\n'), 0); // the pipe's last bytes, after the exit
      return calls < 2;
    };
    const parts: string[] = [];
    await streamLog(p, { follow: true }, { write: (b) => parts.push(b.toString()) }, { isRunning, signal: new AbortController().signal, pollMs: 20 });
    expect(parts.join('')).toBe('a\nlast words\n');
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

describe('CRI container log files', () => {
  const S = 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z
  const sec = (n: number) => S + BigInt(n) * 1_000_000_000n;
  const cri = (...parts: [number, 'stdout' | 'stderr', string][]) => Buffer.concat(parts.map(([t, stream, text]) => encodeCriChunk(Buffer.from(text), stream, sec(t)))).toString();
  // t=1 "one", t=2 "tw" + t=3 "o" (one line in two writes), t=4 "err" on stderr, t=5 "prompt> " unfinished
  const log = file('cri.log', cri([1, 'stdout', 'one\n'], [2, 'stdout', 'tw'], [3, 'stdout', 'o\n'], [4, 'stderr', 'err\n'], [5, 'stdout', 'prompt> ']));

  it('reads back what the container wrote, stdout and stderr interleaved, partial lines joined', async () => {
    expect(await read(log, {})).toBe('one\ntwo\nerr\nprompt> ');
  });

  it('prefixes each line, not each record, with its time', async () => {
    expect(await read(log, { timestamps: true })).toBe('2026-01-01T00:00:01.000000000Z one\n2026-01-01T00:00:02.000000000Z two\n2026-01-01T00:00:04.000000000Z err\n2026-01-01T00:00:05.000000000Z prompt> ');
  });

  it.each([
    [1, 'prompt> '],
    [2, 'err\nprompt> '],
    [3, 'two\nerr\nprompt> '],
    [9, 'one\ntwo\nerr\nprompt> '],
  ])('tailLines %s counts lines of output, a partial line at the end as one', async (tailLines, want) => {
    expect(await read(log, { tailLines })).toBe(want);
  });

  it('since skips older records; tail comes first, then since, then the byte limit (prefix included)', async () => {
    expect(await read(log, { sinceNs: sec(4) })).toBe('err\nprompt> ');
    // the second half of a line started before `since` comes without the line's start and without a prefix
    expect(await read(log, { sinceNs: sec(3), timestamps: true })).toBe('o\n2026-01-01T00:00:04.000000000Z err\n2026-01-01T00:00:05.000000000Z prompt> ');
    expect(await read(log, { tailLines: 3, sinceNs: sec(4) })).toBe('err\nprompt> ');
    expect(await read(log, { tailLines: 1, sinceNs: sec(1) })).toBe('prompt> ');
    expect(await read(log, { sinceNs: sec(4), timestamps: true, limitBytes: 35 })).toBe('2026-01-01T00:00:04.000000000Z err\n');
    expect(await read(log, { sinceNs: sec(9) })).toBe('');
  });

  it('a file begun in the plain format and continued in CRI reads as one log; plain lines have no time', async () => {
    const mixed = file('mixed.log', 'old line\n' + cri([1, 'stdout', 'new line\n']));
    expect(await read(mixed, { timestamps: true })).toBe('old line\n2026-01-01T00:00:01.000000000Z new line\n');
    expect(await read(mixed, { tailLines: 1 })).toBe('new line\n');
  });

  it('a follower sees records as they are appended, and after a rewrite only the ones it has not sent', async () => {
    const p = file('cri-f.log', cri([1, 'stdout', 'a\n']));
    let running = true;
    const parts: string[] = [];
    const done = streamLog(p, { follow: true, timestamps: true }, { write: (b) => parts.push(b.toString()) }, { isRunning: () => running, signal: new AbortController().signal, pollMs: 10 });
    await new Promise((r) => setTimeout(r, 40));
    appendFileSync(p, cri([2, 'stdout', 'b\n'], [3, 'stdout', 'login: ']));
    await new Promise((r) => setTimeout(r, 40));
    writeFileSync(p, cri([3, 'stdout', 'login: '], [4, 'stdout', 'root\n'])); // rewritten shorter, from the ring
    await new Promise((r) => setTimeout(r, 40));
    running = false;
    await done;
    expect(parts.join('')).toBe('2026-01-01T00:00:01.000000000Z a\n2026-01-01T00:00:02.000000000Z b\n2026-01-01T00:00:03.000000000Z login: root\n');
  });

  it('parses timestamps, sinceSeconds and sinceTime', () => {
    expect(parseLogQuery(new URLSearchParams('timestamps=true&sinceTime=2026-01-01T00:00:04Z'))).toEqual({ follow: false, timestamps: true, sinceNs: sec(4) });
    const q = parseLogQuery(new URLSearchParams('sinceSeconds=10'));
    expect('sinceNs' in q && Number(q.sinceNs! / 1_000_000n)).toBeGreaterThan(Date.now() - 11_000);
    expect(parseLogQuery(new URLSearchParams('sinceSeconds=0'))).toEqual({ error: 'sinceSeconds must be a positive integer' });
    expect(parseLogQuery(new URLSearchParams('sinceTime=soon'))).toEqual({ error: 'sinceTime must be an RFC 3339 time: soon' });
  });
});
