/**
 * virtctl's `key:value,key:value` flag parameters (`--volume-containerdisk src:demo,name:root,bootorder:1`)
 * and `[kind/]name` references, as pure functions with virtctl's error wording.
 */
import { VirtctlError } from '../virtctl-error';

export const flagError = (flag: string, message: string) => new VirtctlError(`failed to parse "--${flag}" flag: ${message}`);

export function parseParams(flag: string, value: string, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',')) {
    const colon = part.indexOf(':');
    if (colon < 0) throw flagError(flag, `params need to have at least one colon: ${part}`);
    const key = part.slice(0, colon);
    if (!allowed.includes(key)) throw flagError(flag, `unknown param(s): ${part}`);
    out[key] = part.slice(colon + 1);
  }
  return out;
}

/** `kind/name` or `name`; kind lowercased. */
export function splitPrefixedName(flag: string, value: string): { kind?: string; name: string } {
  const parts = value.split('/');
  if (parts.length > 2) throw flagError(flag, `invalid count ${parts.length - 1} of slashes in prefix/name`);
  return parts.length === 2 ? { kind: parts[0].toLowerCase(), name: parts[1] } : { name: parts[0] };
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export function checkVolumeName(flag: string, name: string): void {
  if (name.length > 63 || !DNS1123_LABEL.test(name)) throw flagError(flag, `invalid name "${name}": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character`);
}

export function bootOrderOf(flag: string, raw: string | undefined, taken: Set<number>): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw flagError(flag, `failed to parse param "bootorder": invalid syntax`);
  if (n === 0) throw flagError(flag, 'bootorder must be greater than 0');
  if (taken.has(n)) throw flagError(flag, `bootorder ${n} was specified multiple times`);
  taken.add(n);
  return n;
}
