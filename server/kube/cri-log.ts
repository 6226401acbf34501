/**
 * The CRI container log format, as the kubelet's container log files hold it: one record per line,
 * `<RFC3339Nano time> <stdout|stderr> <F|P> <content>`. F ends a line of the container's output;
 * P is part of one (a line longer than MAX_RECORD_BYTES, or output that did not end in a newline
 * yet: written at once, as CRI-O's conmon does, so a prompt shows before its newline).
 */

export type CriStream = 'stdout' | 'stderr';

export interface CriRecord {
  /** the time as written (RFC3339Nano) */
  time: string;
  /** the time in ns since the epoch */
  ns: bigint;
  stream: CriStream;
  partial: boolean;
  content: Buffer;
}

/** containerd's bound on one record's content; longer lines are split into P records */
export const MAX_RECORD_BYTES = 16 * 1024;

const NL = 0x0a;
const NS_PER_MS = 1_000_000n;

/** Go's time.RFC3339Nano in UTC: nanoseconds with trailing zeros trimmed (no fraction when zero). */
export function formatRfc3339Nano(ns: bigint): string {
  const ms = ns / NS_PER_MS;
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}${frac ? `.${frac}` : ''}Z`;
}

/** RFC3339NanoFixed, as the kubelet prints `timestamps`: always nine fraction digits, UTC. */
export function formatRfc3339NanoFixed(ns: bigint): string {
  const base = new Date(Number(ns / NS_PER_MS)).toISOString().slice(0, 19);
  return `${base}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;

/** An RFC 3339 time (any fraction up to ns, any offset) in ns since the epoch, or undefined. */
export function parseRfc3339Nano(text: string): bigint | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3].toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * NS_PER_MS + BigInt((m[2] ?? '').padEnd(9, '0'));
}

let lastNs = 0n;

/** Now in ns since the epoch (sub-ms from the monotonic clock), never going back within a process. */
export function nowNs(): bigint {
  const ns = BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000)) * 1000n;
  lastNs = ns > lastNs ? ns : lastNs + 1n;
  return lastNs;
}

function record(time: string, stream: CriStream, partial: boolean, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${time} ${stream} ${partial ? 'P' : 'F'} `), content, Buffer.from('\n')]);
}

/**
 * The records for one chunk of a stream's output: each newline ends an F record, longer lines
 * are cut into P records, and what follows the last newline becomes P records.
 */
export function encodeCriChunk(chunk: Buffer, stream: CriStream, ns: bigint = nowNs()): Buffer {
  const time = formatRfc3339Nano(ns);
  const out: Buffer[] = [];
  let start = 0;
  while (start < chunk.length) {
    const nl = chunk.indexOf(NL, start);
    const lineEnd = nl === -1 ? chunk.length : nl;
    let pos = start;
    while (lineEnd - pos > MAX_RECORD_BYTES) {
      out.push(record(time, stream, true, chunk.subarray(pos, pos + MAX_RECORD_BYTES)));
      pos += MAX_RECORD_BYTES;
    }
    if (nl === -1) {
      if (lineEnd > pos) out.push(record(time, stream, true, chunk.subarray(pos, lineEnd)));
      break;
    }
    out.push(record(time, stream, false, chunk.subarray(pos, lineEnd)));
    start = nl + 1;
  }
  return Buffer.concat(out);
}

const HEADER = /^(\S+) (stdout|stderr) ([FP]) /;

/**
 * One line of a log file (without its newline) as a CRI record; undefined for a line in the plain
 * format older kubelets of ours wrote (the container's bytes as they came).
 */
export function parseCriRecord(line: Buffer): CriRecord | undefined {
  const head = HEADER.exec(line.subarray(0, 64).toString('latin1'));
  if (!head) return undefined;
  const ns = parseRfc3339Nano(head[1]);
  if (ns === undefined) return undefined;
  return { time: head[1], ns, stream: head[2] as CriStream, partial: head[3] === 'P', content: line.subarray(head[0].length) };
}

/** A whole log file's text as the container wrote it (records joined; plain lines as they are). */
export function criLogText(data: Buffer): string {
  const out: Buffer[] = [];
  let start = 0;
  while (start < data.length) {
    const nl = data.indexOf(NL, start);
    const end = nl === -1 ? data.length : nl;
    const line = data.subarray(start, end);
    const rec = parseCriRecord(line);
    out.push(rec ? rec.content : line);
    if (nl !== -1 && !rec?.partial) out.push(Buffer.from('\n'));
    start = end + 1;
  }
  return Buffer.concat(out).toString('utf8');
}
