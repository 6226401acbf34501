/**
 * The compiled structural schema of a kind as its CRD in deploy/crds declares it: the same
 * openAPIV3Schema the API server validates custom resources against, for components that check
 * objects before the API server does (virt-api's admission). Each kind is parsed on first use and
 * only its own file when the file is named `<group>_<plural>.yaml` (controller-gen's and KubeVirt's
 * naming): parsing all of deploy/crds (2.2 MB of YAML) took virt-api's first VMI review 2.2 s.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { crdManifestFiles, DEPLOY_CRDS_DIR, readCRDManifestFile } from './crd-manifests';
import type { CustomResourceDefinition } from './crd-types';
import { compileSchemaNode, type SchemaNode } from './node';

interface CRDVersion {
  name?: string;
  storage?: boolean;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
}

const byKind = new Map<string, SchemaNode>();

const key = (group: string, kind: string) => `${kind}.${group}`;

function storageSchema(crd: CustomResourceDefinition): SchemaNode | undefined {
  const versions: CRDVersion[] = Array.isArray(crd?.spec?.versions) ? crd.spec.versions : [];
  const stored = versions.find((v) => v.storage) ?? versions[0];
  const schema = stored?.schema?.openAPIV3Schema;
  return schema ? compileSchemaNode(schema) : undefined;
}

const isCRDOf = (group: string, kind: string) => (crd: CustomResourceDefinition) => crd?.spec?.group === group && crd?.spec?.names?.kind === kind;

/** the plural kube's naming gives a kind (enough for file names: Policy → policies, Class → classes) */
export function guessPlural(kind: string): string {
  const k = kind.toLowerCase();
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  return `${k}s`;
}

/** The CRD of `kind`: from its `<group>_<plural>.yaml` when that file declares it, else from every file of `dir`. */
export function findCRD(group: string, kind: string, dir: string = DEPLOY_CRDS_DIR): CustomResourceDefinition | undefined {
  const guess = join(dir, `${group}_${guessPlural(kind)}.yaml`);
  const match = isCRDOf(group, kind);
  const fromGuess = existsSync(guess) ? readCRDManifestFile(guess).find(match) : undefined;
  if (fromGuess) return fromGuess;
  for (const f of crdManifestFiles(dir)) {
    if (join(dir, f) === guess) continue;
    const crd = readCRDManifestFile(join(dir, f)).find(match);
    if (crd) return crd;
  }
  return undefined;
}

/** The storage version's schema of `kind` in `group`; throws when deploy/crds has no such CRD (a programming error). */
export function crdSchema(group: string, kind: string): SchemaNode {
  const k = key(group, kind);
  let node = byKind.get(k);
  if (!node) {
    const crd = findCRD(group, kind);
    node = crd && storageSchema(crd);
    if (!node) throw new Error(`deploy/crds has no CustomResourceDefinition for ${k}`);
    byKind.set(k, node);
  }
  return node;
}

/** The schema node at a dotted path of properties (`spec.template.spec`), or undefined when the schema does not type it. */
export function schemaAt(root: SchemaNode, path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const part of path.split('.')) node = node?.properties?.get(part);
  return node;
}
