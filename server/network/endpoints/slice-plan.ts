/**
 * Matching the EndpointSlices a Service has to the ones it should have: which existing slice each
 * desired one reuses (same ports first), which need writing, which are created, which are left over.
 */
import type { V1EndpointSlice } from '@kubernetes/client-node';
import type { DesiredSlice } from './desired-endpoints';
import { sameContent } from './same-content';

export interface SlicePlan {
  update: { existing: V1EndpointSlice; desired: DesiredSlice }[];
  create: DesiredSlice[];
  remove: V1EndpointSlice[];
}

export function planSlices(existing: V1EndpointSlice[], desired: DesiredSlice[], labels: Record<string, string>): SlicePlan {
  const free = [...existing].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  const take = (pred: (s: V1EndpointSlice) => boolean) => {
    const i = free.findIndex(pred);
    return i < 0 ? undefined : free.splice(i, 1)[0];
  };
  const plan: SlicePlan = { update: [], create: [], remove: [] };
  const pending: DesiredSlice[] = [];
  for (const d of desired) {
    const same = take((s) => sameContent(s.ports ?? [], d.ports));
    if (same) plan.update.push({ existing: same, desired: d });
    else pending.push(d);
  }
  for (const d of pending) {
    const reuse = take(() => true);
    if (reuse) plan.update.push({ existing: reuse, desired: d });
    else plan.create.push(d);
  }
  plan.remove = free;
  plan.update = plan.update.filter(({ existing: s, desired: d }) => !upToDate(s, d, labels));
  return plan;
}

function upToDate(s: V1EndpointSlice, d: DesiredSlice, labels: Record<string, string>): boolean {
  return s.addressType === 'IPv4' && sameContent(s.ports ?? [], d.ports) && sameContent(s.endpoints ?? [], d.endpoints) && sameContent(s.metadata?.labels ?? {}, labels);
}
