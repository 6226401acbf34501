/**
 * Does one PolicyRule allow a request? kube's RBAC rule matching: "*" in verbs, apiGroups
 * and resources; "resource/subresource" and "*\/subresource"; resourceNames (empty = any);
 * nonResourceURLs exact or with a trailing "*" prefix match.
 */
import type { PolicyRule, RequestAttributes } from './policy';

const ALL = '*';

const has = (list: readonly string[] | undefined, value: string) => !!list && (list.includes(ALL) || list.includes(value));

export function resourceMatches(rule: PolicyRule, resource: string, subresource: string | undefined): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith(ALL) && path.startsWith(u.slice(0, -1))) return true;
  }
  return false;
}

export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (a.resource === undefined) return a.path !== undefined && nonResourceURLMatches(rule, a.path);
  if (!has(rule.apiGroups, a.group ?? '')) return false;
  if (!resourceMatches(rule, a.resource, a.subresource)) return false;
  const names = rule.resourceNames;
  return !names || names.length === 0 || (a.name !== undefined && names.includes(a.name));
}
