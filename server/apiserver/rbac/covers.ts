/**
 * kube's escalation arithmetic (pkg/registry/rbac/validation): does a set of rules cover
 * another? Each wanted rule is broken into single-verb, single-resource parts, each of which
 * some owned rule must cover. Also the compact wording of what is missing, as kube prints it.
 */
import type { PolicyRule } from './policy';

const ALL = '*';
const hasAll = (set: readonly string[], wanted: readonly string[]) => wanted.every((w) => set.includes(w));

/** one rule per (group, resource, verb) or (url, verb), resource names kept apart */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const n of names) out.push({ apiGroups: [group], resources: [resource], resourceNames: [n], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourcesCover(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes(ALL)) return true;
  return wanted.every((w) => owned.some((o) => {
    if (o === w) return true;
    const slash = w.indexOf('/');
    return slash >= 0 && o.startsWith('*/') && o.slice(2) === w.slice(slash + 1);
  }));
}

function urlsCover(owned: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => owned.some((o) => o === ALL || o === w || (o.endsWith(ALL) && w.startsWith(o.slice(0, -1)))));
}

export function ruleCovers(owner: PolicyRule, part: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, part.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups ?? [], part.apiGroups ?? []);
  const resources = resourcesCover(owner.resources ?? [], part.resources ?? []);
  const urls = urlsCover(owner.nonResourceURLs ?? [], part.nonResourceURLs ?? []);
  const ownerNames = owner.resourceNames ?? [];
  const partNames = part.resourceNames ?? [];
  const names = ownerNames.length === 0 || (partNames.length > 0 && hasAll(ownerNames, partNames));
  return verbs && groups && resources && urls && names;
}

/** the parts of `wanted` that `owned` does not cover (none = covered) */
export function uncovered(owned: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((part) => !owned.some((o) => ruleCovers(o, part)));
}

/** kube's CompactRules: parts on one group/resource/name merge their verbs */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple = !r.nonResourceURLs?.length && r.apiGroups?.length === 1 && r.resources?.length === 1 && (r.resourceNames?.length ?? 0) <= 1;
    if (!isSimple) { out.push(r); continue; }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], r.resourceNames?.[0] ?? '']);
    const seen = simple.get(key);
    if (seen) seen.verbs = [...seen.verbs, ...r.verbs];
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

const q = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** rbacv1helpers.CompactString: `{APIGroups:["" ] , Resources:["pods"], Verbs:["get"]}` with only the fields set */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${q(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${q(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${q(r.resourceNames)}`);
  if (r.verbs.length) parts.push(`Verbs:${q(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}
