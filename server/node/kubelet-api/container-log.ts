/**
 * A container's log file as the kubelet serves it (GET /containerLogs/…): the whole file, its last
 * `tailLines` lines, at most `limitBytes`, and with `follow` what is written next until the
 * container stops or the client goes. Files may be rewritten shorter (the guest console log keeps a
 * bounded tail): a follower that finds the file shorter than its offset starts again from 0.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export interface LogQuery {
  follow: boolean;
  tailLines?: number;
  limitBytes?: number;
}

const CHUNK = 64 * 1024;
export const FOLLOW_POLL_MS = 200;

function nonNegativeInt(raw: string | null, name: string, min: number): number | undefined | { error: string } {
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) return { error: `${name} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer` };
  return n;
}

/** The query the kubelet accepts; kube-apiserver has already validated it, this guards the port itself. */
export function parseLogQuery(params: URLSearchParams): LogQuery | { error: string } {
  const tail = nonNegativeInt(params.get('tailLines'), 'tailLines', 0);
  if (typeof tail === 'object') return tail;
  const limit = nonNegativeInt(params.get('limitBytes'), 'limitBytes', 1);
  if (typeof limit === 'object') return limit;
  return { follow: params.get('follow') === 'true', tailLines: tail, limitBytes: limit };
}

function sizeOf(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

function readRange(file: string, start: number, end: number): Buffer {
  if (end <= start) return Buffer.alloc(0);
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(end - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The offset where the last `lines` lines of a `size`-byte file begin (a final line without newline counts). */
export function tailOffset(file: string, size: number, lines: number): number {
  if (lines === 0) return size;
  let end = size;
  let seen = 0;
  // a trailing newline ends the last line; it does not start another
  let skipTrailing = size > 0 && readRange(file, size - 1, size)[0] === 0x0a;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const chunk = readRange(file, start, end);
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] !== 0x0a) continue;
      if (skipTrailing) {
        skipTrailing = false;
        continue;
      }
      if (++seen === lines) return start + i + 1;
    }
    skipTrailing = false;
    end = start;
  }
  return 0;
}

export interface LogSink {
  write(chunk: Buffer): void;
}

export interface StreamOptions {
  /** still running: a follower keeps waiting for more */
  isRunning: () => boolean;
  signal: AbortSignal;
  pollMs?: number;
}

/** Writes the log per `query` to `sink`; resolves when done (not following, container stopped, or aborted). */
export async function streamLog(file: string, query: LogQuery, sink: LogSink, opts: StreamOptions): Promise<void> {
  let budget = query.limitBytes ?? Number.POSITIVE_INFINITY;
  const emit = (buf: Buffer): boolean => {
    const part = buf.length > budget ? buf.subarray(0, budget) : buf;
    if (part.length) sink.write(part);
    budget -= part.length;
    return budget > 0;
  };
  const size = sizeOf(file) ?? 0;
  let pos = query.tailLines === undefined ? 0 : tailOffset(file, size, query.tailLines);
  // read in bounded chunks so a large file never sits whole in memory
  const drain = (to: number): boolean => {
    while (pos < to) {
      const buf = readRange(file, pos, Math.min(to, pos + CHUNK));
      if (buf.length === 0) return true;
      pos += buf.length;
      if (!emit(buf)) return false;
    }
    return true;
  };
  if (!drain(size) || !query.follow) return;
  const pollMs = opts.pollMs ?? FOLLOW_POLL_MS;
  while (!opts.signal.aborted) {
    const running = opts.isRunning();
    const now = sizeOf(file) ?? 0;
    if (now < pos) pos = 0;
    if (!drain(now)) return;
    if (!running) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, pollMs);
      opts.signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
    });
  }
}
