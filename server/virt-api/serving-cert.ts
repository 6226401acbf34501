/**
 * virt-api's serving certificate, issued from the embedded cluster's CA (DIR/apiserver/pki) so the
 * API server trusts it for webhooks and aggregation; kept in DIR/virt-api/ and reissued when missing.
 * In a Pod (cluster mode) the certificate is a mounted Secret and there is no CA on disk: the CA
 * that signs the aggregation layer's client certificate comes from ConfigMap
 * kube-system/extension-apiserver-authentication, as every aggregated API server reads it.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import type { CoreV1Api } from '@kubernetes/client-node';
import { dataPaths } from '../data-dir';
import { messageOf } from '../kube/api-errors';

const EXTENSION_AUTH = { namespace: 'kube-system', name: 'extension-apiserver-authentication', key: 'requestheader-client-ca-file' };

export interface ServingCert { certPem: string; keyPem: string; caPem: string }

const VALID_DAYS = 825;
export const VIRT_API_SANS = { dns: ['localhost', 'virt-api', 'virt-api.kubevirt', 'virt-api.kubevirt.svc'], ips: ['127.0.0.1', '::1'] };

/** the serving certificate: the cluster's CA on disk (embedded), else mounted files + the published front-proxy CA */
export async function loadServingCert(dataDir: string, core: CoreV1Api): Promise<ServingCert> {
  if (existsSync(join(dataPaths(dataDir).pki, 'ca.crt'))) return ensureServingCert(dataDir);
  const dir = join(dataDir, 'virt-api');
  const files = { cert: join(dir, 'serving.crt'), key: join(dir, 'serving.key') };
  if (!existsSync(files.cert) || !existsSync(files.key)) throw new Error(`no serving certificate: mount one at ${files.cert} and ${files.key} (Secret virt-api-certs) or run with the cluster's data dir`);
  let caPem: string | undefined;
  try {
    const cm = await core.readNamespacedConfigMap({ namespace: EXTENSION_AUTH.namespace, name: EXTENSION_AUTH.name });
    caPem = cm.data?.[EXTENSION_AUTH.key];
  } catch (err) {
    throw new Error(`cannot read ConfigMap ${EXTENSION_AUTH.namespace}/${EXTENSION_AUTH.name} (bind Role extension-apiserver-authentication-reader): ${messageOf(err)}`, { cause: err });
  }
  if (!caPem) throw new Error(`ConfigMap ${EXTENSION_AUTH.namespace}/${EXTENSION_AUTH.name} has no ${EXTENSION_AUTH.key}: the API server does not run an aggregation layer`);
  return { certPem: readFileSync(files.cert, 'utf8'), keyPem: readFileSync(files.key, 'utf8'), caPem };
}

export function ensureServingCert(dataDir: string): ServingCert {
  const pki = dataPaths(dataDir).pki;
  const caPem = readFileSync(join(pki, 'ca.crt'), 'utf8');
  const dir = join(dataDir, 'virt-api');
  const files = { cert: join(dir, 'serving.crt'), key: join(dir, 'serving.key') };
  if (existsSync(files.cert) && existsSync(files.key)) {
    return { certPem: readFileSync(files.cert, 'utf8'), keyPem: readFileSync(files.key, 'utf8'), caPem };
  }
  const ca = forge.pki.certificateFromPem(caPem);
  const caKey = forge.pki.privateKeyFromPem(readFileSync(join(pki, 'ca.key'), 'utf8'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const priv = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(priv.n, priv.e);
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + VALID_DAYS * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'virt-api' }]);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [...VIRT_API_SANS.dns.map((value) => ({ type: 2, value })), ...VIRT_API_SANS.ips.map((ip) => ({ type: 7, ip }))] },
  ]);
  cert.sign(caKey as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(files.key, keyPem, { mode: 0o600 });
  writeFileSync(files.cert, certPem, { mode: 0o644 });
  return { certPem, keyPem, caPem };
}
