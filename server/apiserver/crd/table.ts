import { BUILTIN_COLUMNS, BUILTIN_NAME_CELLS, type BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';
import { evaluateJSONPath } from './jsonpath';
import type { PrinterColumn, ResourceType } from './resource-type';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** meta.k8s.io/v1 TableColumnDefinition */
export interface TableColumnDefinition { name: string; type: string; format: string; description: string; priority: number }
/** meta.k8s.io/v1 TableRow: the cells, and the object as includeObject asks */
export interface TableRow { cells: unknown[]; object?: unknown }
/** meta.k8s.io/v1 Table */
export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: Record<string, unknown>;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const CREATION_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
const DEFAULT_CR_COLUMNS: PrinterColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 0 }];

/**
 * A meta.k8s.io/v1 Table for `objects`, as kube-apiserver answers `Accept: as=Table`:
 * Name first; then a custom resource's additionalPrinterColumns (Age when it declares none);
 * for built-in kinds kubectl's usual columns, else Age. Every column is sent (kubectl hides
 * priority > 0 unless -o wide).
 */
export function renderTable(
  rt: ResourceType | undefined,
  objects: unknown[],
  opts: { includeObject: IncludeObject; listMeta: Record<string, unknown> | undefined; wide?: boolean; kind: string; now?: number },
): Table {
  const now = opts.now ?? Date.now();
  const columns = isCustom(rt) ? crColumns(rt!) : BUILTIN_COLUMNS[opts.kind] ?? (rt ? crColumns(rt) : [ageColumn()]);
  const nameCell = (!isCustom(rt) && BUILTIN_NAME_CELLS[opts.kind]) || ((o: unknown) => String((o as { metadata?: { name?: string } } | null)?.metadata?.name ?? ''));
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: opts.listMeta ?? {},
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
      ...columns.map((c) => ({
        name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0,
      })),
    ],
    rows: objects.map((o) => ({
      cells: [nameCell(o), ...columns.map((c) => c.cell(o, now))],
      ...rowObject(o, opts.includeObject),
    })),
  };
}

const BUILTIN_GROUPS = new Set([
  '', 'apps', 'events.k8s.io', 'coordination.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io',
  'admissionregistration.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'storage.k8s.io', 'discovery.k8s.io', 'networking.k8s.io',
]);

/** A custom resource, or a built-in type that carries its own printer columns. */
const isCustom = (rt: ResourceType | undefined) => !!rt && (!BUILTIN_GROUPS.has(rt.group) || rt.printerColumns.length > 0);

function ageColumn(): BuiltinColumn {
  return { name: 'Age', type: 'string', description: CREATION_DESCRIPTION, cell: (o, now) => humanAge((o as { metadata?: { creationTimestamp?: unknown } } | null | undefined)?.metadata?.creationTimestamp, now) };
}

function crColumns(rt: ResourceType): BuiltinColumn[] {
  const defs = rt.printerColumns.length ? rt.printerColumns : DEFAULT_CR_COLUMNS;
  return defs.map((c) => ({
    name: c.name, type: c.type, format: c.format, priority: c.priority,
    description: c.description ?? (c.jsonPath === '.metadata.creationTimestamp' ? CREATION_DESCRIPTION : 'Custom resource definition column (in JSONPath format): ' + c.jsonPath),
    cell: (o: unknown, now: number) => crCell(c, o, now),
  }));
}

/** kube's CR table convertor: first JSONPath match, typed by the column (date → age). */
function crCell(c: PrinterColumn, o: unknown, now: number): unknown {
  let value: unknown;
  try {
    value = evaluateJSONPath(c.jsonPath, o)[0];
  } catch {
    return null;
  }
  if (value === undefined || value === null) return null;
  switch (c.type) {
    case 'date': return typeof value === 'string' ? humanAge(value, now) : null;
    case 'integer': return typeof value === 'number' && Number.isInteger(value) ? value : null;
    case 'number': return typeof value === 'number' ? value : null;
    case 'boolean': return typeof value === 'boolean' ? value : null;
    default: return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

function rowObject(o: unknown, include: IncludeObject): { object?: unknown } {
  if (include === 'None') return {};
  if (include === 'Object') return { object: o };
  return { object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: (o as { metadata?: unknown } | null | undefined)?.metadata ?? {} } };
}
