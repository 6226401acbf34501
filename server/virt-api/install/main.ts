/**
 * `kv install-certs [--kubeconfig FILE] [--namespace kubevirt] [--service virt-api] [--secret virt-api-certs]`:
 * the install step that stands in for cert-manager (deploy/cluster/cert-manager). Run it after
 * `kubectl apply -k deploy/cluster`: it creates Secret virt-api-certs (tls.crt, tls.key, ca.crt) once —
 * an existing one is kept — and puts its CA into caBundle of every APIService and webhook that calls
 * the virt-api Service. Safe to run again; prints what it changed.
 */
import { parseArgs } from 'node:util';
import { AdmissionregistrationV1Api, ApiregistrationV1Api, CoreV1Api, type V1Secret } from '@kubernetes/client-node';
import { loadKubeConfig } from '../../kube/kubeconfig';
import { isNotFound, messageOf } from '../../kube/api-errors';
import { issueServingCerts, setAPIServiceCaBundle, setWebhookCaBundle } from './issue-certs';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined) => (s ? Buffer.from(s, 'base64').toString('utf8') : '');

export async function runInstallCertsCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, strict: true, options: { kubeconfig: { type: 'string' }, namespace: { type: 'string' }, service: { type: 'string' }, secret: { type: 'string' } } });
  const namespace = values.namespace ?? 'kubevirt';
  const service = values.service ?? 'virt-api';
  const secretName = values.secret ?? 'virt-api-certs';
  const kc = loadKubeConfig(values.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const say = (line: string) => process.stdout.write(`${line}\n`);

  let caPem: string;
  try {
    const existing: V1Secret = await core.readNamespacedSecret({ namespace, name: secretName });
    caPem = unb64(existing.data?.['ca.crt']);
    if (!caPem || !existing.data?.['tls.crt'] || !existing.data?.['tls.key']) throw new Error(`secret ${namespace}/${secretName} exists without ca.crt, tls.crt and tls.key: delete it or fill it`);
    say(`secret/${secretName} kept`);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const certs = issueServingCerts(namespace, service);
    await core.createNamespacedSecret({ namespace, body: {
      metadata: { name: secretName, namespace, labels: { 'app.kubernetes.io/managed-by': 'kv-install-certs' } },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': b64(certs.certPem), 'tls.key': b64(certs.keyPem), 'ca.crt': b64(certs.caPem) },
    } });
    caPem = certs.caPem;
    say(`secret/${secretName} created`);
  }
  const caBundle = b64(caPem);

  const reg = kc.makeApiClient(ApiregistrationV1Api);
  for (const api of (await reg.listAPIService()).items) {
    if (!setAPIServiceCaBundle(api, namespace, service, caBundle)) continue;
    await reg.replaceAPIService({ name: api.metadata!.name!, body: api });
    say(`apiservice/${api.metadata!.name} caBundle set`);
  }
  const adm = kc.makeApiClient(AdmissionregistrationV1Api);
  for (const hook of (await adm.listMutatingWebhookConfiguration()).items) {
    if (!setWebhookCaBundle(hook, namespace, service, caBundle)) continue;
    await adm.replaceMutatingWebhookConfiguration({ name: hook.metadata!.name!, body: hook });
    say(`mutatingwebhookconfiguration/${hook.metadata!.name} caBundle set`);
  }
  for (const hook of (await adm.listValidatingWebhookConfiguration()).items) {
    if (!setWebhookCaBundle(hook, namespace, service, caBundle)) continue;
    await adm.replaceValidatingWebhookConfiguration({ name: hook.metadata!.name!, body: hook });
    say(`validatingwebhookconfiguration/${hook.metadata!.name} caBundle set`);
  }
}

/** the command as `kv` runs it: an API error is a message and exit 1, not a stack trace */
export async function runInstallCerts(argv: string[]): Promise<void> {
  try {
    await runInstallCertsCommand(argv);
  } catch (err) {
    if (err instanceof Error && 'code' in err && typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS')) throw err;
    process.stderr.write(`kv install-certs: ${messageOf(err)}\n`);
    process.exitCode = 1;
  }
}
