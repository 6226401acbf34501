import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Endpoints } from '@kubernetes/client-node';
import forge from 'node-forge';
import { setProxyClientCertificate, setServiceResolver } from './aggregation';
import type { Store } from './store/types';
import { newCertificate, newKeyPair } from '../tls-keys';

const FRONT_PROXY_DAYS = 825;
export const FRONT_PROXY_CN = 'front-proxy-client';

/**
 * Embedded mode has no cluster DNS: a Service named by an APIService or a webhook is reached
 * through its Endpoints object, as kube-apiserver does with `--enable-aggregator-routing`.
 * TLS is still verified against `<name>.<namespace>.svc`. Without Endpoints, cluster DNS is used.
 */
export function resolveServiceViaEndpoints(store: Store) {
  return (namespace: string, name: string, port: number): string => {
    const kv = store.get(`/registry/core/endpoints/${namespace}/${name}`);
    const subset = kv ? (JSON.parse(kv.value) as V1Endpoints | null)?.subsets?.[0] : undefined;
    const ip = subset?.addresses?.[0]?.ip;
    const epPort = subset?.ports?.find((p) => p.port === port)?.port ?? subset?.ports?.[0]?.port ?? port;
    if (!ip) return `https://${name}.${namespace}.svc:${port}`;
    return `https://${ip.includes(':') ? `[${ip}]` : ip}:${epPort}`;
  };
}

/**
 * The client certificate the API server presents to aggregated servers (requestheader auth),
 * signed by the cluster CA so virt-api can trust the X-Remote-User headers it carries.
 */
export function ensureFrontProxyCertificate(pkiDir: string): { cert: string; key: string } {
  const certFile = join(pkiDir, 'front-proxy-client.crt');
  const keyFile = join(pkiDir, 'front-proxy-client.key');
  if (existsSync(certFile) && existsSync(keyFile)) return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  const caCert = forge.pki.certificateFromPem(readFileSync(join(pkiDir, 'ca.crt'), 'utf8'));
  const caKey = forge.pki.privateKeyFromPem(readFileSync(join(pkiDir, 'ca.key'), 'utf8')) as forge.pki.rsa.PrivateKey;
  const keys = newKeyPair();
  const cert = newCertificate(keys.publicKey, FRONT_PROXY_DAYS);
  cert.setSubject([{ name: 'commonName', value: FRONT_PROXY_CN }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(cert);
  writeFileSync(keyFile, keys.pem, { mode: 0o600 });
  writeFileSync(certFile, pem, { mode: 0o644 });
  return { cert: pem, key: keys.pem };
}

/** Points the aggregation proxy and the webhook caller at this API server's store and CA. */
export function wireAggregation(store: Store, pkiDir: string): void {
  setServiceResolver(resolveServiceViaEndpoints(store));
  setProxyClientCertificate(ensureFrontProxyCertificate(pkiDir));
}
