import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueServingCerts, setAPIServiceCaBundle, setWebhookCaBundle } from './issue-certs';

describe('kv install-certs: certificates', () => {
  it('issues a serving certificate for the Service DNS names, signed by the CA it returns', () => {
    const certs = issueServingCerts('kubevirt', 'virt-api');
    const ca = new X509Certificate(certs.caPem);
    const cert = new X509Certificate(certs.certPem);
    expect(ca.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:virt-api, DNS:virt-api.kubevirt, DNS:virt-api.kubevirt.svc, DNS:virt-api.kubevirt.svc.cluster.local');
    expect(cert.checkPrivateKey(createPrivateKey(certs.keyPem))).toBe(true);
    expect(new X509Certificate(issueServingCerts('kubevirt', 'virt-api').caPem).fingerprint256).not.toBe(ca.fingerprint256);
  });

  it('sets caBundle only on webhooks and APIServices that call the Service', () => {
    const config = { webhooks: [
      { clientConfig: { service: { namespace: 'kubevirt', name: 'virt-api' } } },
      { clientConfig: { service: { namespace: 'other', name: 'virt-api' } } },
      { clientConfig: { url: 'https://x' } as { service?: { namespace: string; name: string } } },
    ] };
    expect(setWebhookCaBundle(config, 'kubevirt', 'virt-api', 'Q0E=')).toBe(true);
    expect(config.webhooks.map((w) => (w.clientConfig as { caBundle?: string }).caBundle)).toEqual(['Q0E=', undefined, undefined]);
    expect(setWebhookCaBundle(config, 'kubevirt', 'virt-api', 'Q0E=')).toBe(false);
    const api = { spec: { service: { namespace: 'kubevirt', name: 'virt-api' } } as { service: object; caBundle?: string } };
    expect(setAPIServiceCaBundle(api, 'kubevirt', 'virt-api', 'Q0E=')).toBe(true);
    expect(api.spec.caBundle).toBe('Q0E=');
    expect(setAPIServiceCaBundle({ spec: {} }, 'kubevirt', 'virt-api', 'Q0E=')).toBe(false);
  });
});
