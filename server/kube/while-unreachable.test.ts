import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isUnreachable, retryWhileUnreachable } from './while-unreachable';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
const noSleep = async () => {};

describe('retryWhileUnreachable (a component starting while the API server restarts)', () => {
  it('retries a refused connection and a 503 until the API server answers', async () => {
    const answers: unknown[] = [refused, new ApiException(503, 'unavailable', {}, {}), 'served'];
    let calls = 0;
    const out = await retryWhileUnreachable(async () => { const a = answers[calls++]; if (a instanceof Error) throw a; return a; }, { sleep: noSleep });
    expect(out).toBe('served');
    expect(calls).toBe(3);
  });

  it('throws a refusal (403, 404, 409) at once', async () => {
    let calls = 0;
    await expect(retryWhileUnreachable(async () => { calls++; throw new ApiException(403, 'forbidden', {}, {}); }, { sleep: noSleep })).rejects.toMatchObject({ code: 403 });
    expect(calls).toBe(1);
  });

  it('gives up after its deadline with the last error', async () => {
    await expect(retryWhileUnreachable(async () => { throw refused; }, { timeoutMs: 0, sleep: noSleep })).rejects.toBe(refused);
  });

  it('counts a connection error (no HTTP status) and 5xx as unreachable, 4xx not', () => {
    expect(isUnreachable(refused)).toBe(true);
    expect(isUnreachable(new ApiException(500, 'x', {}, {}))).toBe(true);
    expect(isUnreachable(new ApiException(404, 'x', {}, {}))).toBe(false);
    expect(isUnreachable(new TypeError('a bug, not an outage'))).toBe(false);
  });
});
