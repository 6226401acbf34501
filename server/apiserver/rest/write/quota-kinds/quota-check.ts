/**
 * PURE: one quota's verdict on a create: kube's ResourceQuota admission message when the new
 * usage would exceed a hard limit, for the resources the create uses.
 */
import { formatAmount, type Usage } from './quota-usage';

export interface QuotaLimits { name: string; hard: Map<string, number>; hardText: Map<string, string> }

const pretty = (entries: [string, string][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join(',');

/** `exceeded quota: NAME, requested: …, used: …, limited: …`, or undefined when the create fits */
export function exceededMessage(quota: QuotaLimits, requested: Usage, used: Usage): string | undefined {
  const exceeded = [...requested.keys()].filter((r) => quota.hard.has(r) && (requested.get(r) ?? 0) > 0 && (used.get(r) ?? 0) + requested.get(r)! > quota.hard.get(r)!);
  if (exceeded.length === 0) return undefined;
  const req = exceeded.map((r): [string, string] => [r, formatAmount(r, requested.get(r)!)]);
  const use = exceeded.map((r): [string, string] => [r, formatAmount(r, used.get(r) ?? 0)]);
  const lim = exceeded.map((r): [string, string] => [r, quota.hardText.get(r) ?? formatAmount(r, quota.hard.get(r)!)]);
  return `exceeded quota: ${quota.name}, requested: ${pretty(req)}, used: ${pretty(use)}, limited: ${pretty(lim)}`;
}
