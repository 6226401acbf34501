/**
 * The key pair the API server signs CDI upload tokens with (UploadTokenRequest), kept beside the
 * CA in DIR/apiserver/pki (cdi-upload-token.key 0600), made once so tokens outlive a restart. The
 * public half is published as ConfigMap kube-system/cdi-api-signing-key (`id_rsa.pub`), where the
 * upload proxy reads it (CDI keeps it in its own namespace's Secret of that name).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UPLOAD_TOKEN_KEY_CONFIGMAP } from '../kube/upload-token';
import { SYSTEM_USER, type ApiContext } from './rest/api-context';
import { objectKey } from './rest/codec/object-codec';
import { createObject } from './rest/write/create-object';
import { updateObject } from './rest/write/update-object';

export function ensureUploadTokenKey(pkiDir: string): KeyObject {
  const keyFile = join(pkiDir, 'cdi-upload-token.key');
  if (!existsSync(keyFile)) {
    mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  return createPrivateKey(readFileSync(keyFile));
}

/** creates or refreshes the ConfigMap holding the verifying key */
export async function publishUploadTokenKey(ctx: ApiContext, privateKey: KeyObject): Promise<void> {
  const { namespace, name, key } = UPLOAD_TOKEN_KEY_CONFIGMAP;
  const rt = ctx.registry.find('', 'v1', 'configmaps');
  if (!rt) return;
  const data = { [key]: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString() };
  const write = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
  if (!ctx.store.get(objectKey(rt, namespace, name))) {
    await createObject(ctx, rt, namespace, { metadata: { name }, data }, write);
    return;
  }
  await updateObject(ctx, { rt, namespace, name, mutate: (cur: Record<string, unknown>) => ({ ...cur, data }) }, write);
}
