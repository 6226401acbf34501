import { builtinColumns, type Column } from './builtin-columns';
import { ageOf } from './human-duration';
import type { ServedType } from './resource-type';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function includeObjectFrom(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

/** a simple JSONPath (.a.b[0].c) evaluated against an object */
function evalJsonPath(obj: any, path: string): unknown {
  let cur = obj;
  for (const part of path.replace(/^\{?\.?/, '').replace(/\}$/, '').split('.').filter(Boolean)) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return undefined;
    if (m[1]) cur = cur?.[m[1]];
    for (const idx of m[2].match(/\d+/g) ?? []) cur = cur?.[Number(idx)];
  }
  return cur;
}

function crdColumns(rt: ServedType): Column[] {
  const name: Column = { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', cell: (o) => o.metadata?.name };
  if (!rt.printerColumns.length) return [name, { name: 'Age', type: 'date', cell: (o) => ageOf(o.metadata?.creationTimestamp) }];
  return [name, ...rt.printerColumns.map((c): Column => ({
    name: c.name, type: c.type, format: c.format, priority: c.priority, description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    cell: (o) => {
      const v = evalJsonPath(o, c.jsonPath);
      if (v === undefined || v === null) return null;
      if (c.type === 'date') return ageOf(String(v));
      if (c.type === 'string' && typeof v === 'object') return JSON.stringify(v);
      return v;
    },
  }))];
}

function rowObject(obj: any, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** a meta.k8s.io/v1 Table of the objects */
export function renderObjectsTable(rt: ServedType, objects: any[], opts: { include: IncludeObject; listMeta: Record<string, unknown> }): any {
  const cols = rt.builtin ? builtinColumns(rt.group, rt.resource) : crdColumns(rt);
  return {
    kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: opts.listMeta,
    columnDefinitions: cols.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
    rows: objects.map((o) => ({ cells: cols.map((c) => c.cell(o) ?? null), object: rowObject(o, opts.include) })),
  };
}
