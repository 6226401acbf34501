/**
 * What kube-apiserver publishes for aggregated API servers at every start: ConfigMap
 * `kube-system/extension-apiserver-authentication` (the CA that signs its front-proxy client
 * certificate, the names and headers it uses, the client CA) and the Role
 * `extension-apiserver-authentication-reader` that lets an aggregated server read it. virt-api in a
 * Pod reads the CA from there instead of a file (server/virt-api/serving-cert.ts).
 */
import { SYSTEM_USER, type ApiContext } from './rest/api-context';
import { objectKey } from './rest/codec/object-codec';
import { createObject } from './rest/write/create-object';
import { updateObject } from './rest/write/update-object';
import { FRONT_PROXY_CN } from './aggregation-wiring';

export const EXTENSION_AUTH_CONFIGMAP = 'extension-apiserver-authentication';
export const EXTENSION_AUTH_READER_ROLE = 'extension-apiserver-authentication-reader';
export const REQUESTHEADER_CA_KEY = 'requestheader-client-ca-file';
const NAMESPACE = 'kube-system';
const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };

type Obj = Record<string, unknown>;

export function extensionAuthData(caPem: string): Record<string, string> {
  return {
    'client-ca-file': caPem,
    [REQUESTHEADER_CA_KEY]: caPem,
    'requestheader-allowed-names': JSON.stringify([FRONT_PROXY_CN]),
    'requestheader-username-headers': JSON.stringify(['X-Remote-User']),
    'requestheader-group-headers': JSON.stringify(['X-Remote-Group']),
    'requestheader-extra-headers-prefix': JSON.stringify(['X-Remote-Extra-']),
  };
}

async function upsert(ctx: ApiContext, group: string, resource: string, name: string, desired: Obj, apply: (cur: Obj) => Obj): Promise<void> {
  const rt = ctx.registry.find(group, 'v1', resource);
  if (!rt) return;
  if (!ctx.store.get(objectKey(rt, NAMESPACE, name))) {
    await createObject(ctx, rt, NAMESPACE, desired, WRITE);
    return;
  }
  await updateObject(ctx, { rt, namespace: NAMESPACE, name, mutate: (cur: Obj) => apply(cur) }, WRITE);
}

/** creates or refreshes the ConfigMap and the reader Role in kube-system */
export async function publishExtensionApiserverAuthentication(ctx: ApiContext, caPem: string): Promise<void> {
  const data = extensionAuthData(caPem);
  await upsert(ctx, '', 'configmaps', EXTENSION_AUTH_CONFIGMAP, { metadata: { name: EXTENSION_AUTH_CONFIGMAP }, data }, (cur) => ({ ...cur, data }));
  const rules = [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [EXTENSION_AUTH_CONFIGMAP], verbs: ['get', 'list', 'watch'] }];
  const labels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
  await upsert(ctx, 'rbac.authorization.k8s.io', 'roles', EXTENSION_AUTH_READER_ROLE, { metadata: { name: EXTENSION_AUTH_READER_ROLE, labels }, rules }, (cur) => ({ ...cur, rules }));
}
