/**
 * Building QEMU option values safely. Spec values never go through a shell (args are an
 * array), but QEMU's own `key=value,key=value` syntax treats a comma as a separator, so any
 * embedded value has its commas doubled; devices and block nodes use QEMU's JSON syntax.
 */
import { invalid } from './converter-error';

/** Escapes a value embedded in a QEMU `key=value,...` option (`,` → `,,`). */
export function escapeOptValue(value: string): string {
  return value.replaceAll(',', ',,');
}

/** `driver,key=value,...` with every value escaped. */
export function renderOpts(head: string, opts: Record<string, string | number | boolean | undefined>): string {
  const parts = [head];
  for (const [k, v] of Object.entries(opts)) {
    if (v === undefined) continue;
    parts.push(`${k}=${escapeOptValue(typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v))}`);
  }
  return parts.join(',');
}

/** QEMU JSON option syntax (`-device '{"driver":...}'`), undefined fields dropped. */
export function renderJson(obj: Record<string, unknown>): string {
  return JSON.stringify(obj, (_k, v) => (v === undefined ? undefined : v));
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Names that become file names and QEMU ids (disks, volumes, interfaces) must be DNS-1123
 * labels, as KubeVirt's API validation requires; anything else (`../x`, `a/b`, `a,b`) is refused.
 */
export function checkName(name: unknown, field: string): string {
  if (typeof name !== 'string' || name.length > 63 || !DNS_LABEL.test(name)) {
    throw invalid(`${field}: ${JSON.stringify(name)} is not a valid name (DNS-1123 label)`);
  }
  return name;
}

/** A QEMU id for a user-named device, KubeVirt's `ua-` alias prefix. */
export function userAlias(name: string): string {
  return `ua-${name}`;
}
