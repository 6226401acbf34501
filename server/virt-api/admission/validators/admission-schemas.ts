/**
 * The schemas admission checks objects against (schema-check.ts): the kinds' own CRD schemas
 * from deploy/crds, plus ObjectMeta, which a CRD leaves untyped (the API server checks metadata
 * itself, after admission) although the validators read its labels and annotations.
 */
import { crdSchema, schemaAt } from '../../../kube/structural-schema/crd-schemas';
import { compileSchemaNode, type SchemaNode } from '../../../kube/structural-schema/node';

const str = { type: 'string' };
const strMap = { type: 'object', additionalProperties: str };

/** the ObjectMeta fields admission reads, typed as metav1.ObjectMeta types them */
export const OBJECT_META_SCHEMA: SchemaNode = compileSchemaNode({
  type: 'object',
  properties: {
    name: str, generateName: str, namespace: str, uid: str,
    labels: strMap, annotations: strMap, finalizers: { type: 'array', items: str },
  },
});

function specOf(group: string, kind: string, path = 'spec'): () => SchemaNode {
  let node: SchemaNode | undefined;
  return () => {
    node ??= schemaAt(crdSchema(group, kind), path);
    if (!node) throw new Error(`the ${kind} CRD does not type ${path}`);
    return node;
  };
}

/** VirtualMachineInstance.spec (also a VM's, replica set's and pool's template spec: the same definition) */
export const vmiSpecSchema = specOf('kubevirt.io', 'VirtualMachineInstance');
export const migrationSpecSchema = specOf('kubevirt.io', 'VirtualMachineInstanceMigration');
export const migrationPolicySpecSchema = specOf('migrations.kubevirt.io', 'MigrationPolicy');

/**
 * Parses and compiles the schemas admission reads, so that no review waits on it (virt-api runs
 * it before it registers its webhooks). Returns the milliseconds it took.
 */
export function warmAdmissionSchemas(): number {
  const t0 = performance.now();
  vmiSpecSchema();
  migrationSpecSchema();
  migrationPolicySpecSchema();
  return performance.now() - t0;
}
