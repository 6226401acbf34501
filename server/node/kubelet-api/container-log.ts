/**
 * A container's log file as the kubelet serves it (GET /containerLogs/…), in kube's order: its last
 * `tailLines` lines, then those since `sinceSeconds`/`sinceTime`, each with its time in front with
 * `timestamps`, cut at `limitBytes`; with `follow` what is written next until the container stops or
 * the client goes. Files hold CRI records (server/kube/cri-log.ts) or, written before those, plain
 * output; both read. Files may be rewritten shorter (the guest console log keeps a bounded tail): a
 * follower that finds the file shorter than its offset starts again from 0, past what it has sent.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { formatRfc3339NanoFixed, nowNs, parseCriRecord, parseRfc3339Nano } from '../../kube/cri-log';

export interface LogQuery {
  follow: boolean;
  tailLines?: number;
  limitBytes?: number;
  timestamps?: boolean;
  /** only records written at or after this time (ns since the epoch) */
  sinceNs?: bigint;
}

const NL = 0x0a;
const NEWLINE = Buffer.from('\n');
/** a plain-format file's line longer than this is passed on in pieces */
const MAX_CARRY = 1024 * 1024;

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
  const sinceSeconds = nonNegativeInt(params.get('sinceSeconds'), 'sinceSeconds', 1);
  if (typeof sinceSeconds === 'object') return sinceSeconds;
  const sinceTime = params.get('sinceTime');
  let sinceNs = sinceSeconds === undefined ? undefined : nowNs() - BigInt(sinceSeconds) * 1_000_000_000n;
  if (sinceTime) {
    sinceNs = parseRfc3339Nano(sinceTime);
    if (sinceNs === undefined) return { error: `sinceTime must be an RFC 3339 time: ${sinceTime}` };
  }
  const query: LogQuery = { follow: params.get('follow') === 'true', tailLines: tail, limitBytes: limit };
  if (params.get('timestamps') === 'true') query.timestamps = true;
  if (sinceNs !== undefined) query.sinceNs = sinceNs;
  return query;
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

/** The raw lines of the file from its end: [start, end) without the newline. */
function* linesBackward(file: string, size: number): Generator<[number, number]> {
  if (size === 0) return;
  // a trailing newline ends the last line; it does not start another
  let lineEnd = readRange(file, size - 1, size)[0] === NL ? size - 1 : size;
  let pos = lineEnd;
  while (pos > 0) {
    const start = Math.max(0, pos - CHUNK);
    const chunk = readRange(file, start, pos);
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (chunk[i] !== NL) continue;
      yield [start + i + 1, lineEnd];
      lineEnd = start + i;
    }
    pos = start;
  }
  yield [0, lineEnd];
}

/** Whether a raw line ends a line of output: a CRI F record or a plain line (not a P record). */
function endsLine(file: string, start: number, end: number): boolean {
  return parseCriRecord(readRange(file, start, Math.min(end, start + 64)))?.partial !== true;
}

/**
 * The offset where the last `lines` lines of output begin: a line is a plain line, or the CRI
 * records up to an F one; P records at the end are an unfinished line and count as one.
 */
export function tailOffset(file: string, size: number, lines: number): number {
  if (lines === 0) return size;
  let seen = 0;
  let first = true;
  for (const [start, end] of linesBackward(file, size)) {
    const ends = endsLine(file, start, end);
    if (first && !ends) seen = 1;
    first = false;
    if (!ends) continue;
    if (seen === lines) return end + 1;
    seen++;
  }
  return 0;
}

/**
 * Turns raw log lines back into what the container wrote, the kubelet's way: lines older than
 * `since` skipped, a time prefix on each line with `timestamps` (RFC3339NanoFixed, as kubectl
 * shows). Plain lines (files written before the CRI format) have no time: they are kept whatever
 * `since` says and get no prefix.
 */
class LogRenderer {
  private lineStart = true;
  /** after the file was rewritten shorter: records up to this time were already sent */
  private seenUpTo?: bigint;
  private lastNs?: bigint;

  constructor(private readonly query: LogQuery, private readonly emit: (buf: Buffer) => boolean) {}

  restarted(): void {
    this.seenUpTo = this.lastNs;
  }

  /** one raw line without its newline; `complete`: it had one. False once the byte limit is reached. */
  line(raw: Buffer, complete: boolean): boolean {
    const rec = parseCriRecord(raw);
    if (!rec) {
      this.lineStart = true;
      return this.emit(complete ? Buffer.concat([raw, NEWLINE]) : raw);
    }
    const atStart = this.lineStart;
    this.lineStart = !rec.partial;
    if (this.seenUpTo !== undefined && rec.ns <= this.seenUpTo) return true;
    if (this.query.sinceNs !== undefined && rec.ns < this.query.sinceNs) return true;
    this.lastNs = rec.ns;
    const parts = [rec.content];
    if (this.query.timestamps && atStart) parts.unshift(Buffer.from(`${formatRfc3339NanoFixed(rec.ns)} `));
    if (!rec.partial) parts.push(NEWLINE);
    return this.emit(Buffer.concat(parts));
  }
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
  const render = new LogRenderer(query, emit);
  const size = sizeOf(file) ?? 0;
  let pos = query.tailLines === undefined ? 0 : tailOffset(file, size, query.tailLines);
  /** bytes read after the last newline */
  let carry = Buffer.alloc(0);
  // read in bounded chunks so a large file never sits whole in memory
  const drain = (to: number): boolean => {
    while (pos < to) {
      const buf = readRange(file, pos, Math.min(to, pos + CHUNK));
      if (buf.length === 0) return true;
      pos += buf.length;
      const data = carry.length ? Buffer.concat([carry, buf]) : buf;
      let start = 0;
      for (let nl = data.indexOf(NL); nl !== -1; nl = data.indexOf(NL, start)) {
        if (!render.line(data.subarray(start, nl), true)) return false;
        start = nl + 1;
      }
      carry = Buffer.from(data.subarray(start));
      if (carry.length > MAX_CARRY) {
        const ok = render.line(carry, false);
        carry = Buffer.alloc(0);
        if (!ok) return false;
      }
    }
    return true;
  };
  /** the end: a last line without its newline is passed on as it is */
  const finish = (): void => {
    if (carry.length) render.line(carry, false);
    carry = Buffer.alloc(0);
  };
  if (!drain(size)) return;
  if (!query.follow) return finish();
  const pollMs = opts.pollMs ?? FOLLOW_POLL_MS;
  // once the container has stopped, one more poll: its last output may still be on its way from
  // the pipe into the file (the kubelet sees the exit and the pipe's last bytes in either order)
  let stoppedPolls = 0;
  while (!opts.signal.aborted) {
    if (!opts.isRunning()) stoppedPolls++;
    const now = sizeOf(file) ?? 0;
    if (now < pos) {
      pos = 0;
      carry = Buffer.alloc(0);
      render.restarted();
    }
    if (!drain(now)) return;
    if (stoppedPolls > 1) return finish();
    await new Promise<void>((resolve) => {
      const onAbort = () => { clearTimeout(t); resolve(); };
      const t = setTimeout(() => { opts.signal.removeEventListener('abort', onAbort); resolve(); }, pollMs);
      opts.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
