import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/** A throwaway CA and one serving certificate, for tests that need real TLS. */
export interface TestPKI {
  caPem: string;
  caBundle: string;
  certPem: string;
  keyPem: string;
}

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { pub: forge.pki.publicKeyFromPem(publicKey), priv: forge.pki.privateKeyFromPem(privateKey), privPem: privateKey };
}

function newCert(serial: string, subject: forge.pki.CertificateField[], issuer: forge.pki.CertificateField[], pub: forge.pki.PublicKey) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = pub;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  return cert;
}

/** A CA, and a certificate signed by it for `dnsNames` (and 127.0.0.1). */
export function createTestPKI(dnsNames: string[]): TestPKI {
  const ca = keyPair();
  const caName = [{ name: 'commonName', value: 'kubevirt-ts test CA' }];
  const caCert = newCert('01', caName, caName, ca.pub);
  caCert.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true }]);
  caCert.sign(ca.priv, forge.md.sha256.create());
  const leaf = keyPair();
  const cert = newCert('02', [{ name: 'commonName', value: dnsNames[0] }], caName, leaf.pub);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [...dnsNames.map((value) => ({ type: 2, value })), { type: 7, ip: '127.0.0.1' }] },
  ]);
  cert.sign(ca.priv, forge.md.sha256.create());
  const caPem = forge.pki.certificateToPem(caCert);
  return { caPem, caBundle: Buffer.from(caPem).toString('base64'), certPem: forge.pki.certificateToPem(cert), keyPem: leaf.privPem };
}
