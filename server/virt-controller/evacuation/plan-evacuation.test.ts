import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration } from '../../../lib/kubevirt';
import { inPhase, newVMIM, runningVMI, withUID } from '../migration/testing-builders';
import { DEFAULT_EVACUATION_LIMITS, planEvacuation, renderEvacuationMigration, type EvacuationDecision, type EvacuationInputs } from './plan-evacuation';

const NOW = new Date('2026-01-01T00:10:00Z');
const MIGRATABLE = { conditions: [{ type: 'LiveMigratable', status: 'True' as const }] };
const marked = (extra: Partial<NonNullable<VirtualMachineInstance['status']>> = {}) =>
  runningVMI('node-1', undefined, { evacuationNodeName: 'node-1', ...MIGRATABLE, ...extra });
const failedAt = (iso: string): VirtualMachineInstanceMigration => {
  const m = newVMIM(withUID('old'), inPhase('Failed'));
  m.status!.phaseTransitionTimestamps = [{ phase: 'Failed', phaseTransitionTimestamp: iso }];
  return m;
};
const activeFrom = (node: string, n: number) => Array.from({ length: n }, (_, i) => ({ vmim: newVMIM(withUID(`a${i}`), inPhase('Running')), sourceNode: node }));

function plan(vmi: VirtualMachineInstance, over: Partial<EvacuationInputs> = {}): EvacuationDecision {
  return planEvacuation({ vmi, own: [], active: [], limits: DEFAULT_EVACUATION_LIMITS, now: NOW, ...over });
}

describe('planEvacuation', () => {
  it.each<[string, VirtualMachineInstance, Partial<EvacuationInputs>, EvacuationDecision['action']]>([
    ['marked, migratable, idle → create', marked(), {}, 'create'],
    ['not marked', runningVMI('node-1', undefined, MIGRATABLE), {}, 'none'],
    ['marked for another node (already moved)', marked({ nodeName: 'node-2' }), {}, 'none'],
    ['not running', marked({ phase: 'Scheduled' }), {}, 'none'],
    ['not migratable', marked({ conditions: [{ type: 'LiveMigratable', status: 'False' }] }), {}, 'none'],
    ['two active pods (a move in progress)', marked({ activePods: { a: 'node-1', b: 'node-2' } }), {}, 'none'],
    ['its migration still running', marked(), { own: [newVMIM(inPhase('Running'))] }, 'none'],
    ['a succeeded one does not block', marked(), { own: [newVMIM(inPhase('Succeeded'))] }, 'create'],
    ['failed 5 s ago → backoff', marked(), { own: [failedAt('2026-01-01T00:09:55Z')] }, 'wait'],
    ['failed a minute ago → create', marked(), { own: [failedAt('2026-01-01T00:09:00Z')] }, 'create'],
    ['cluster limit reached', marked(), { active: activeFrom('node-9', 5) }, 'wait'],
    ['node outbound limit reached', marked(), { active: activeFrom('node-1', 2) }, 'wait'],
    ['another node busy, this one free', marked(), { active: activeFrom('node-2', 2) }, 'create'],
  ])('%s', (_n, vmi, over, action) => {
    expect(plan(vmi, over).action).toBe(action);
  });

  it('waits out the rest of the backoff', () => {
    expect(plan(marked(), { own: [failedAt('2026-01-01T00:09:55Z')] })).toMatchObject({ action: 'wait', retryAfterMs: 15_000 });
  });

  it('renders KubeVirt\'s evacuation migration', () => {
    expect(renderEvacuationMigration(marked(), 'node-1')).toMatchObject({
      metadata: { generateName: 'kubevirt-evacuation-', namespace: 'default', annotations: { 'kubevirt.io/evacuationMigration': 'node-1' }, labels: { 'kubevirt.io/vmi-name': 'testvmi' } },
      spec: { vmiName: 'testvmi', priority: 'system-critical' },
    });
  });
});
