/**
 * PURE: `imagePullPolicy` as Kubernetes defines it. Unset means Always for `:latest` or no tag
 * (and no digest), IfNotPresent otherwise.
 */
import { parseImageReference } from './image-name';

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';
const POLICIES = new Set<string>(['Always', 'IfNotPresent', 'Never']);

export function effectivePullPolicy(ref: string, policy?: string): PullPolicy {
  if (policy && POLICIES.has(policy)) return policy as PullPolicy;
  const parsed = parseImageReference(ref);
  if (!parsed || parsed.digest) return 'IfNotPresent';
  const explicitTag = /:[^/]+$/.test(ref.split('@')[0]);
  return !explicitTag || parsed.tag === 'latest' ? 'Always' : 'IfNotPresent';
}
