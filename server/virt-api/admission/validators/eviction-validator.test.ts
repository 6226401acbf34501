import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../../../lib/kubevirt/vmi-types';
import type { AdmissionRequest } from '../admission-review';
import { validateEviction, type EvictedPod, type EvictionVerdict } from './eviction-validator';

const req = (dryRun = false): AdmissionRequest =>
  ({ uid: 'r', operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'pods' }, subResource: 'eviction', namespace: 'ns', name: 'virt-launcher-vm1-abc', userInfo: {}, dryRun });

const launcher = (over: { node?: string; labels?: Record<string, string>; phase?: string } = {}): EvictedPod => ({
  metadata: { labels: { 'kubevirt.io': 'virt-launcher', ...over.labels }, annotations: { 'kubevirt.io/domain': 'vm1' } },
  spec: { nodeName: over.node ?? 'node-1' }, status: { phase: over.phase ?? 'Running' },
});

type Status = NonNullable<VirtualMachineInstance['status']>;
const vmi = (strategy: string | undefined, migratable: boolean | undefined, status: Partial<Status> = {}): VirtualMachineInstance => ({
  metadata: { name: 'vm1', namespace: 'ns', uid: 'u' },
  spec: { domain: { devices: {} }, ...(strategy ? { evictionStrategy: strategy as never } : {}) },
  status: {
    phase: 'Running', nodeName: 'node-1',
    conditions: migratable === undefined ? [] : [{ type: 'LiveMigratable', status: migratable ? 'True' : 'False' }],
    ...status,
  } as Status,
});

const TRIGGERED: EvictionVerdict = { allowed: false, code: 429, message: 'Eviction triggered evacuation of VMI "ns/vm1"' };
const ALLOWED: EvictionVerdict = { allowed: true };

function run(pod: EvictedPod | undefined, v: VirtualMachineInstance | undefined, opts: { dryRun?: boolean; clusterStrategy?: string; markError?: string } = {}) {
  const marks: string[] = [];
  const verdict = validateEviction(req(opts.dryRun), {
    getPod: async () => pod,
    getVMI: async () => v,
    markForEvacuation: async (_ns, name, node) => {
      if (opts.markError) throw new Error(opts.markError);
      marks.push(`${name}@${node}`);
    },
    clusterStrategy: opts.clusterStrategy,
  });
  return verdict.then((result) => ({ result, marks }));
}

describe('validateEviction (launcher eviction interceptor)', () => {
  it.each<[string, EvictedPod | undefined, VirtualMachineInstance | undefined, Parameters<typeof run>[2], EvictionVerdict, string[]]>([
    ['LiveMigrate, migratable: marks and refuses', launcher(), vmi('LiveMigrate', true), {}, TRIGGERED, ['vm1@node-1']],
    ['LiveMigrateIfPossible, migratable: marks and refuses', launcher(), vmi('LiveMigrateIfPossible', true), {}, TRIGGERED, ['vm1@node-1']],
    ['External: marks and refuses', launcher(), vmi('External', false), {}, TRIGGERED, ['vm1@node-1']],
    ['cluster default LiveMigrate applies to a VMI without one', launcher(), vmi(undefined, true), { clusterStrategy: 'LiveMigrate' }, TRIGGERED, ['vm1@node-1']],
    ['dry run: refuses without marking', launcher(), vmi('LiveMigrate', true), { dryRun: true }, TRIGGERED, []],
    ['already marked: evacuation in progress', launcher(), vmi('LiveMigrate', true, { evacuationNodeName: 'node-1' }), {},
      { allowed: false, code: 429, message: 'Evacuation in progress: Eviction triggered evacuation of VMI "ns/vm1"' }, []],
    ['LiveMigrate, not migratable: refused, not marked', launcher(), vmi('LiveMigrate', false), {},
      { allowed: false, code: 429, message: 'VMI vm1 is configured with an eviction strategy but is not live-migratable' }, []],
    ['mark fails: refused with the error', launcher(), vmi('LiveMigrate', true), { markError: 'conflict' },
      { allowed: false, code: 429, message: 'kubevirt failed marking the vmi for eviction: conflict' }, []],
    ['in-flight migration target pod: refused', launcher({ node: 'node-2', labels: { 'kubevirt.io/migrationJobUID': 'm1' } }),
      vmi('LiveMigrate', true, { migrationState: { migrationUid: 'm1' } }), {}, { allowed: false, code: 429, message: 'Eviction request for target Pod' }, []],
    ['LiveMigrateIfPossible, not migratable: evicted', launcher(), vmi('LiveMigrateIfPossible', false), {}, ALLOWED, []],
    ['no strategy: evicted', launcher(), vmi(undefined, true), {}, ALLOWED, []],
    ['None: evicted', launcher(), vmi('None', true), {}, ALLOWED, []],
    ['old source pod after the move: evicted', launcher({ node: 'node-0' }), vmi('LiveMigrate', true), {}, ALLOWED, []],
    ['completed launcher: evicted', launcher({ phase: 'Succeeded' }), vmi('LiveMigrate', true), {}, ALLOWED, []],
    ['not a launcher: evicted', { metadata: { labels: { app: 'web' } }, spec: { nodeName: 'node-1' } }, vmi('LiveMigrate', true), {}, ALLOWED, []],
    ['pod gone: evicted (the API server answers 404)', undefined, vmi('LiveMigrate', true), {}, ALLOWED, []],
    ['VMI gone: evicted', launcher(), undefined, {}, ALLOWED, []],
  ])('%s', async (_name, pod, v, opts, verdict, marks) => {
    expect(await run(pod, v, opts)).toEqual({ result: verdict, marks });
  });
});
