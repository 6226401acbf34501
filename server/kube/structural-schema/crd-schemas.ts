/**
 * The compiled structural schema of a kind as its CRD in deploy/crds declares it: the same
 * openAPIV3Schema the API server validates custom resources against, for components that check
 * objects before the API server does (virt-api's admission).
 */
import { readCRDManifests } from './crd-manifests';
import { compileSchemaNode, type SchemaNode } from './node';

interface CRDVersion {
  name?: string;
  storage?: boolean;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
}

let byKind: Map<string, SchemaNode> | undefined;

const key = (group: string, kind: string) => `${kind}.${group}`;

function load(): Map<string, SchemaNode> {
  const out = new Map<string, SchemaNode>();
  for (const crd of readCRDManifests()) {
    const versions: CRDVersion[] = Array.isArray(crd?.spec?.versions) ? crd.spec.versions : [];
    const stored = versions.find((v) => v.storage) ?? versions[0];
    const schema = stored?.schema?.openAPIV3Schema;
    if (schema) out.set(key(crd.spec.group, crd.spec.names.kind), compileSchemaNode(schema));
  }
  return out;
}

/** The storage version's schema of `kind` in `group`; throws when deploy/crds has no such CRD (a programming error). */
export function crdSchema(group: string, kind: string): SchemaNode {
  byKind ??= load();
  const node = byKind.get(key(group, kind));
  if (!node) throw new Error(`deploy/crds has no CustomResourceDefinition for ${key(group, kind)}`);
  return node;
}

/** The schema node at a dotted path of properties (`spec.template.spec`), or undefined when the schema does not type it. */
export function schemaAt(root: SchemaNode, path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const part of path.split('.')) node = node?.properties?.get(part);
  return node;
}
