import { describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATION_SETTINGS } from './constants';
import { decideThrottle, type ActiveMigration } from './throttle';
import { inPhase, newVMIM, withUID } from './testing-builders';

const active = (n: number, node: string, phase = 'Running'): ActiveMigration[] =>
  Array.from({ length: n }, (_, i) => ({ vmim: newVMIM(withUID(`${node}-${phase}-${i}`), inPhase(phase)), sourceNode: node }));

describe('decideThrottle', () => {
  it.each([
    ['nothing else runs', [], true],
    ['one outbound from the same node', active(1, 'node-1'), true],
    ['two outbound from the same node (per-node limit 2)', active(2, 'node-1'), false],
    ['four running elsewhere', active(4, 'node-2'), true],
    ['five running in the cluster (cluster limit 5)', [...active(4, 'node-2'), ...active(1, 'node-3')], false],
    ['Pending ones do not count', active(5, 'node-1', 'Pending'), true],
    ['final ones do not count', [...active(3, 'node-1', 'Succeeded'), ...active(3, 'node-2', 'Failed')], true],
  ])('%s', (_n, others, allowed) => {
    const got = decideThrottle(newVMIM(inPhase('Pending')), 'node-1', others, DEFAULT_MIGRATION_SETTINGS);
    expect(got.allowed).toBe(allowed);
  });

  it('does not count the migration itself', () => {
    const me = newVMIM(inPhase('Pending'));
    const others = [...active(1, 'node-1'), { vmim: newVMIM(inPhase('Scheduling')), sourceNode: 'node-1' }];
    expect(decideThrottle(me, 'node-1', others, DEFAULT_MIGRATION_SETTINGS).allowed).toBe(true);
  });

  it('retries evacuations sooner than user migrations', () => {
    const others = active(2, 'node-1');
    const user = decideThrottle(newVMIM(), 'node-1', others, DEFAULT_MIGRATION_SETTINGS);
    const evac = decideThrottle(newVMIM((m) => { m.spec.priority = 'system-critical'; }), 'node-1', others, DEFAULT_MIGRATION_SETTINGS);
    expect(user.allowed || evac.allowed).toBe(false);
    if (!user.allowed && !evac.allowed) expect(evac.retryAfterMs).toBeLessThan(user.retryAfterMs);
  });
});
