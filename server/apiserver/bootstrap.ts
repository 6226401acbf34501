import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { SYSTEM_USER, type ApiContext } from './rest/api-context';
import { SYSTEM_NAMESPACES } from './rest/types/builtin-types';
import { createObject } from './rest/write/create-object';
import { objectKey } from './rest/codec/object-codec';
import { updateObject } from './rest/write/update-object';

export const DEFAULT_CRD_DIR = fileURLToPath(new URL('../../deploy/crds/', import.meta.url));

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };

/** default, kube-system, kube-public, kube-node-lease: created once */
export async function ensureSystemNamespaces(ctx: ApiContext): Promise<void> {
  const rt = ctx.registry.find('', 'v1', 'namespaces')!;
  for (const name of SYSTEM_NAMESPACES) {
    if (ctx.store.get(objectKey(rt, undefined, name))) continue;
    await createObject(ctx, rt, undefined, { metadata: { name } }, WRITE);
  }
}

/** applies every CRD in the folder (create or replace the spec), like k3s's manifests dir */
export async function applyCRDFolder(ctx: ApiContext, dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  const rt = ctx.registry.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  let applied = 0;
  for (const file of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const crd = doc.toJS();
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      const name = crd.metadata?.name;
      if (ctx.store.get(objectKey(rt, undefined, name))) {
        await updateObject(ctx, { rt, name, mutate: (cur) => ({ ...cur, spec: crd.spec, metadata: { ...cur.metadata, labels: crd.metadata.labels, annotations: crd.metadata.annotations } }) }, WRITE);
      } else {
        await createObject(ctx, rt, undefined, crd, WRITE);
      }
      applied++;
    }
  }
  return applied;
}
