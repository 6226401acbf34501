/**
 * kube's field.ErrorList entries as StatusCauses: the reason and the message body
 * (`Required value: …`, `Unsupported value: "x": supported values: …`) exactly as
 * apimachinery's field.Error renders them.
 */
import type { StatusCause } from '../../status-error';

const withDetail = (head: string, detail?: string) => (detail ? `${head}: ${detail}` : head);

/** how field.Error prints a bad value: strings quoted, numbers and booleans bare, nothing as null */
export function badValue(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

export const required = (field: string, detail?: string): StatusCause =>
  ({ reason: 'FieldValueRequired', field, message: withDetail('Required value', detail) });

export const forbidden = (field: string, detail: string): StatusCause =>
  ({ reason: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) });

export const invalidValue = (field: string, value: unknown, detail: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${badValue(value)}: ${detail}` });

/** NotSupported: the bad value and the sorted list of what is allowed */
export const notSupported = (field: string, value: unknown, supported: readonly string[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  field,
  message: `Unsupported value: ${badValue(value)}: supported values: ${[...supported].sort().map((s) => `"${s}"`).join(', ')}`,
});

/** ValidateImmutableField */
export const immutable = (field: string, value: unknown): StatusCause => invalidValue(field, value, 'field is immutable');

/** plain-object view of an unknown JSON value ({} for anything else) */
export function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function asStringList(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : [];
}

/** field.Error's deep-equality of two JSON values (key order ignored) */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** a short "- old / + new" listing of the top-level fields that differ (kube appends cmp.Diff here) */
export function fieldDiff(oldObj: Record<string, unknown>, newObj: Record<string, unknown>): string {
  const keys = [...new Set([...Object.keys(oldObj), ...Object.keys(newObj)])].sort();
  return keys
    .filter((k) => !sameJson(oldObj[k], newObj[k]))
    .map((k) => `  ${k}:\n-   ${JSON.stringify(oldObj[k] ?? null)}\n+   ${JSON.stringify(newObj[k] ?? null)}`)
    .join('\n');
}
