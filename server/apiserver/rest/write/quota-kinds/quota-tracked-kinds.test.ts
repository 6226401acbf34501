import { describe, expect, it } from 'vitest';
import { countsKind, trackedKinds } from './quota-tracked-kinds';

describe('the kinds a quota counts (what wakes the quota controller)', () => {
  it.each<[string, string[], string[], string[]]>([
    ['compute names count Pods', ['pods', 'requests.memory', 'limits.cpu', 'cpu'], ['/pods', '/resourcequotas'], ['/events', '/persistentvolumeclaims']],
    ['storage names count claims', ['requests.storage', 'fast.storageclass.storage.k8s.io/persistentvolumeclaims'], ['/persistentvolumeclaims'], ['/pods']],
    ['legacy and count/ names count their kind', ['configmaps', 'count/virtualmachines.kubevirt.io', 'count/pods'], ['/configmaps', 'kubevirt.io/virtualmachines', '/pods'], ['/secrets', '/events']],
    ['a quota on Events counts Events', ['count/events'], ['/events'], ['/pods']],
    ['no names: only quotas themselves', [], ['/resourcequotas'], ['/pods', '/events', 'coordination.k8s.io/leases']],
  ])('%s', (_, names, counted, ignored) => {
    const kinds = trackedKinds(names);
    for (const k of counted) { const [g, r] = k.split('/'); expect(countsKind(kinds, g, r), k).toBe(true); }
    for (const k of ignored) { const [g, r] = k.split('/'); expect(countsKind(kinds, g, r), k).toBe(false); }
  });
});
