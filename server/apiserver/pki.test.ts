import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePki } from './pki';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the API server PKI', () => {
  it('names the kubernetes Service IP and the advertise address, so Pods verify it through 10.96.0.1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kv-pki-'));
    dirs.push(dir);
    const pki = ensurePki(dir);
    const sans = new X509Certificate(pki.certPem).subjectAltName;
    expect(sans).toContain('IP Address:10.96.0.1');
    expect(sans).toContain('IP Address:169.254.64.1');
    expect(sans).toContain('IP Address:127.0.0.1');
  });

  it('reissues a serving certificate that lacks them (a data dir from before), keeping the CA', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kv-pki-'));
    dirs.push(dir);
    const first = ensurePki(dir);
    copyFileSync(join(dir, 'ca.crt'), join(dir, 'serving.crt')); // a certificate without those names
    const again = ensurePki(dir);
    expect(again.caPem).toBe(first.caPem);
    expect(again.certPem).not.toBe(first.certPem);
    const cert = new X509Certificate(readFileSync(join(dir, 'serving.crt'), 'utf8'));
    expect(cert.subjectAltName).toContain('IP Address:10.96.0.1');
    expect(cert.verify(new X509Certificate(first.caPem).publicKey)).toBe(true);
    expect(ensurePki(dir).certPem).toBe(again.certPem); // stable once it covers them
  });
});
