import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureHandlerToken, handlerTokenPath } from './node-endpoint';

describe('the handler token', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is KV_HANDLER_TOKEN when the Pod has it (cluster mode), and no file is written', () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-handler-'));
    expect(ensureHandlerToken(dir, 'n1', { KV_HANDLER_TOKEN: 'from-secret\n' })).toBe('from-secret');
    expect(existsSync(handlerTokenPath(dir, 'n1'))).toBe(false);
  });

  it('is made once and kept in the node dir otherwise (kv up)', () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-handler-'));
    const first = ensureHandlerToken(dir, 'n1', {});
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(handlerTokenPath(dir, 'n1'), 'utf8').trim()).toBe(first);
    expect(ensureHandlerToken(dir, 'n1', {})).toBe(first);
  });
});
