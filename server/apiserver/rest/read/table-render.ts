import { renderTable, type IncludeObject } from '../../crd/table';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';

export type { IncludeObject };

export function includeObjectFrom(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

/** a meta.k8s.io/v1 Table of the objects (printer columns from crd/table) */
export function renderObjectsTable(rt: ServedType, objects: ApiObject[], opts: { include: IncludeObject; listMeta: Record<string, unknown> }): unknown {
  return renderTable(rt, objects, { includeObject: opts.include, listMeta: opts.listMeta, kind: rt.kind });
}
