import { describe, expect, it } from 'vitest';
import { criLogText, encodeCriChunk, formatRfc3339Nano, formatRfc3339NanoFixed, MAX_RECORD_BYTES, nowNs, parseCriRecord, parseRfc3339Nano } from './cri-log';

const T = 1_767_225_600_123_456_789n; // 2026-01-01T00:00:00.123456789Z

describe('CRI log times', () => {
  it.each([
    [T, '2026-01-01T00:00:00.123456789Z'],
    [1_767_225_600_120_000_000n, '2026-01-01T00:00:00.12Z'],
    [1_767_225_600_000_000_000n, '2026-01-01T00:00:00Z'],
  ])('formats %s as Go RFC3339Nano', (ns, text) => {
    expect(formatRfc3339Nano(ns)).toBe(text);
    expect(parseRfc3339Nano(text)).toBe(ns);
  });

  it('prints RFC3339NanoFixed for timestamps: nine digits always', () => {
    expect(formatRfc3339NanoFixed(T)).toBe('2026-01-01T00:00:00.123456789Z');
    expect(formatRfc3339NanoFixed(1_767_225_600_000_000_000n)).toBe('2026-01-01T00:00:00.000000000Z');
  });

  it('parses offsets and second-precision times; refuses what is not RFC 3339', () => {
    expect(parseRfc3339Nano('2026-01-01T01:00:00+01:00')).toBe(1_767_225_600_000_000_000n);
    expect(parseRfc3339Nano('2026-01-01')).toBeUndefined();
    expect(parseRfc3339Nano('yesterday')).toBeUndefined();
  });

  it('never goes back', () => {
    const a = nowNs();
    const b = nowNs();
    expect(b > a).toBe(true);
    expect(Number(a / 1_000_000n)).toBeGreaterThan(Date.now() - 1000);
  });
});

describe('CRI log records', () => {
  const enc = (text: string | Buffer, stream: 'stdout' | 'stderr' = 'stdout') => encodeCriChunk(Buffer.from(text), stream, T).toString();
  const at = '2026-01-01T00:00:00.123456789Z';

  it('writes one F record per line, with its stream', () => {
    expect(enc('one\ntwo\n')).toBe(`${at} stdout F one\n${at} stdout F two\n`);
    expect(enc('oops\n', 'stderr')).toBe(`${at} stderr F oops\n`);
    expect(enc('\n')).toBe(`${at} stdout F \n`);
  });

  it('writes output without its newline yet as a P record', () => {
    expect(enc('done\nlogin: ')).toBe(`${at} stdout F done\n${at} stdout P login: \n`);
  });

  it('splits a line longer than 16 KiB into P records ending with an F one', () => {
    const line = 'x'.repeat(MAX_RECORD_BYTES * 2 + 5);
    const records = enc(`${line}\n`).split('\n').filter(Boolean).map((l) => parseCriRecord(Buffer.from(l))!);
    expect(records.map((r) => [r.partial, r.content.length])).toEqual([[true, MAX_RECORD_BYTES], [true, MAX_RECORD_BYTES], [false, 5]]);
    expect(enc('y'.repeat(MAX_RECORD_BYTES) + '\n').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('reads a record back, keeping bytes that are not UTF-8 and carriage returns', () => {
    const r = parseCriRecord(Buffer.from(`${at} stderr P \xff\r`, 'latin1'))!;
    expect(r).toMatchObject({ time: at, ns: T, stream: 'stderr', partial: true });
    expect([...r.content]).toEqual([0xff, 0x0d]);
  });

  it('a plain line of an older log file is no record', () => {
    expect(parseCriRecord(Buffer.from('Linux version 6.1'))).toBeUndefined();
    expect(parseCriRecord(Buffer.from('2026 stdout F x'))).toBeUndefined();
    expect(parseCriRecord(Buffer.from(`${at} stdin F x`))).toBeUndefined();
  });

  it('a whole file reads back as the text written, plain lines of an older file as they are', () => {
    const file = Buffer.concat([Buffer.from('old\n'), encodeCriChunk(Buffer.from('a\nb'), 'stdout', T), encodeCriChunk(Buffer.from('c\nlogin: '), 'stderr', T)]);
    expect(criLogText(file)).toBe('old\na\nbc\nlogin: ');
  });
});
