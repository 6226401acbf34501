/**
 * What cert-manager does for deploy/cluster/cert-manager, without cert-manager: a self-signed CA and
 * virt-api's serving certificate for its Service's DNS names, and the CA as the caBundle of the
 * APIServices and webhooks that point at that Service.
 */
import forge from 'node-forge';
import { newCertificate, newKeyPair } from '../../tls-keys';

export interface VirtApiCerts { caPem: string; certPem: string; keyPem: string }

const CA_DAYS = 3650;
const SERVING_DAYS = 365;

/** the DNS names a Service `name` in `namespace` is dialled by (kube-apiserver verifies <name>.<namespace>.svc) */
export function serviceDnsNames(namespace: string, name: string): string[] {
  return [name, `${name}.${namespace}`, `${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`];
}

/** a fresh self-signed CA and a serving certificate it signs for the Service's DNS names */
export function issueServingCerts(namespace: string, service: string): VirtApiCerts {
  const caKeys = newKeyPair();
  const caCert = newCertificate(caKeys.publicKey, CA_DAYS);
  const subject = [{ name: 'commonName', value: `${service}-ca.${namespace}` }];
  caCert.setSubject(subject);
  caCert.setIssuer(subject);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(caKeys.privateKey, forge.md.sha256.create());
  const keys = newKeyPair();
  const cert = newCertificate(keys.publicKey, SERVING_DAYS);
  const dns = serviceDnsNames(namespace, service);
  cert.setSubject([{ name: 'commonName', value: dns[2]! }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: dns.map((value) => ({ type: 2, value })) },
  ]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(caCert), certPem: forge.pki.certificateToPem(cert), keyPem: keys.pem };
}

interface ServiceRef { namespace?: string; name?: string }
interface WithService { service?: ServiceRef; caBundle?: string }
interface Webhook { clientConfig?: WithService }
interface WebhookConfiguration { webhooks?: Webhook[] }
interface APIServiceLike { spec?: WithService }

const points = (ref: ServiceRef | undefined, namespace: string, service: string) => ref?.namespace === namespace && ref?.name === service;

/** the webhooks of a configuration that call `namespace/service` get `caBundle`; true when one changed */
export function setWebhookCaBundle(config: WebhookConfiguration, namespace: string, service: string, caBundle: string): boolean {
  let changed = false;
  for (const hook of config.webhooks ?? []) {
    if (!hook.clientConfig || !points(hook.clientConfig.service, namespace, service) || hook.clientConfig.caBundle === caBundle) continue;
    hook.clientConfig.caBundle = caBundle;
    changed = true;
  }
  return changed;
}

/** an APIService served by `namespace/service` gets `caBundle`; true when it changed */
export function setAPIServiceCaBundle(apiService: APIServiceLike, namespace: string, service: string, caBundle: string): boolean {
  if (!apiService.spec || !points(apiService.spec.service, namespace, service) || apiService.spec.caBundle === caBundle) return false;
  apiService.spec.caBundle = caBundle;
  return true;
}
