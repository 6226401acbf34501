import type { PrinterColumn, ResourceType } from './resource-type';

/**
 * Stand-ins for server/apiserver/crd/ until it lands. Same signatures; minimal behaviour.
 */
export function resourceTypesFromCRD(crd: any): ResourceType[] {
  const spec = crd?.spec ?? {};
  const names = spec.names ?? {};
  return (spec.versions ?? []).map((v: any) => ({
    group: spec.group,
    version: v.name,
    resource: names.plural,
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    singular: names.singular ?? String(names.kind ?? '').toLowerCase(),
    namespaced: spec.scope !== 'Cluster',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
    subresources: { status: Boolean(v.subresources?.status), scale: Boolean(v.subresources?.scale) },
    printerColumns: (v.additionalPrinterColumns ?? []).map((c: any): PrinterColumn => ({ ...c, priority: c.priority ?? 0 })),
    schema: v.schema?.openAPIV3Schema,
    storage: Boolean(v.storage),
    served: v.served !== false,
  }));
}

export type CompiledSchema = { rt: ResourceType };

export function prepareSchema(rt: ResourceType): CompiledSchema { return { rt }; }

export function validateObject(_cs: CompiledSchema, obj: any, _opts: { fieldValidation: 'Strict' | 'Warn' | 'Ignore' }) {
  return { object: obj, causes: [] as { type: string; field: string; message: string }[], warnings: [] as string[] };
}

export function buildOpenAPIv2(_rts: ResourceType[]): object {
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths: {}, definitions: {} };
}
export function buildOpenAPIv3Index(_rts: ResourceType[]): object { return { paths: {} }; }
export function buildOpenAPIv3Group(_rts: ResourceType[], _group: string, _version: string): object | undefined { return undefined; }
