import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { newCertificate, newKeyPair } from '../tls-keys';
import { API_ADVERTISE_ADDRESS } from '../network/service-model';
import { KUBERNETES_SERVICE_IP } from './rest/write/service-kinds/service-fields';

/** The API server's CA and serving certificate, generated once into DIR/apiserver/pki. */
export interface Pki { caPem: string; certPem: string; keyPem: string }

const CA_DAYS = 3650;
const SERVING_DAYS = 825;
const SERVING_SANS = { dns: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'], ips: ['127.0.0.1', '::1', KUBERNETES_SERVICE_IP, API_ADVERTISE_ADDRESS] };

function createCa() {
  const keys = newKeyPair();
  const cert = newCertificate(keys.publicKey, CA_DAYS);
  const subject = [{ name: 'commonName', value: 'kubevirt-ts-ca' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { cert, keys };
}

function createServing(ca: { cert: forge.pki.Certificate; keys: { privateKey: forge.pki.PrivateKey } }) {
  const keys = newKeyPair();
  const cert = newCertificate(keys.publicKey, SERVING_DAYS);
  cert.setSubject([{ name: 'commonName', value: 'kube-apiserver' }]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [...SERVING_SANS.dns.map((value) => ({ type: 2, value })), ...SERVING_SANS.ips.map((ip) => ({ type: 7, ip }))] },
  ]);
  cert.sign(ca.keys.privateKey as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.pem };
}

/** the serving certificate names every address the API server is dialled at */
function coversServingSans(certPem: string): boolean {
  const names = new X509Certificate(certPem).subjectAltName ?? '';
  return SERVING_SANS.ips.filter((ip) => !ip.includes(':')).every((ip) => names.includes(`IP Address:${ip}`));
}

/** loads the PKI from dir, generating it the first time */
export function ensurePki(dir: string): Pki {
  const files = { ca: join(dir, 'ca.crt'), caKey: join(dir, 'ca.key'), cert: join(dir, 'serving.crt'), key: join(dir, 'serving.key') };
  if (Object.values(files).every((f) => existsSync(f))) {
    const caPem = readFileSync(files.ca, 'utf8');
    const certPem = readFileSync(files.cert, 'utf8');
    if (coversServingSans(certPem)) return { caPem, certPem, keyPem: readFileSync(files.key, 'utf8') };
    // a data dir from before the Service IP and the advertise address were names of the API server
    const serving = createServing({ cert: forge.pki.certificateFromPem(caPem), keys: { privateKey: forge.pki.privateKeyFromPem(readFileSync(files.caKey, 'utf8')) } });
    writeFileSync(files.key, serving.keyPem, { mode: 0o600 });
    writeFileSync(files.cert, serving.certPem, { mode: 0o644 });
    return { caPem, ...serving };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = createCa();
  const serving = createServing(ca);
  const caPem = forge.pki.certificateToPem(ca.cert);
  writeFileSync(files.caKey, ca.keys.pem, { mode: 0o600 });
  writeFileSync(files.ca, caPem, { mode: 0o644 });
  writeFileSync(files.key, serving.keyPem, { mode: 0o600 });
  writeFileSync(files.cert, serving.certPem, { mode: 0o644 });
  return { caPem, ...serving };
}
