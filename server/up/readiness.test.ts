import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readApiAccess } from './readiness';

const kubeconfig = (server: string, token: string, ca = 'not a real CA') => [
  'apiVersion: v1', 'kind: Config', 'current-context: kv',
  'clusters:', '- name: kv', '  cluster:', `    server: ${server}`, `    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
  'users:', '- name: admin', '  user:', `    token: ${token}`,
  'contexts:', '- name: kv', '  context: {cluster: kv, user: admin}', '',
].join('\n');

describe('readApiAccess', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kv-readiness-'));
  afterEach(() => rmSync(join(dir, 'kubeconfig'), { force: true }));

  it('reads server, CA and token; answers undefined while the file is missing', () => {
    const file = join(dir, 'kubeconfig');
    expect(readApiAccess(file)).toBeUndefined();
    writeFileSync(file, kubeconfig('https://127.0.0.1:6443', 'first'));
    expect(readApiAccess(file)).toEqual({ server: 'https://127.0.0.1:6443', ca: 'not a real CA', token: 'first' });
  });

  it('sees a rewritten kubeconfig (a restarted API server), and parses an unchanged one only once', () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, kubeconfig('https://127.0.0.1:6443', 'first'));
    const a = readApiAccess(file);
    expect(readApiAccess(file)).toBe(a); // the same object: not parsed again
    writeFileSync(file, kubeconfig('https://127.0.0.1:7443', 'second')); // same size: only the mtime tells
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(readApiAccess(file)).toMatchObject({ server: 'https://127.0.0.1:7443', token: 'second' });
    writeFileSync(file, 'clusters: []\n');
    expect(readApiAccess(file)).toBeUndefined();
  });
});
