import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance, VMIMigrationState } from '../../../lib/kubevirt';
import { migrationRole } from './migration-handler';

const vmi = (nodeName: string, state?: VMIMigrationState): VirtualMachineInstance => ({
  metadata: { name: 'v', namespace: 'ns', uid: 'u' }, spec: { domain: { devices: {} } }, status: { phase: 'Running', nodeName, migrationState: state },
});
const st = (more: Partial<VMIMigrationState> = {}): VMIMigrationState => ({ migrationUid: 'm', sourceNode: 'node-1', targetNode: 'node-2', ...more });

describe('migrationRole', () => {
  it.each([
    ['no migration', vmi('node-1'), 'node-1', undefined],
    ['source while the guest is here', vmi('node-1', st()), 'node-1', 'source'],
    ['target while preparing', vmi('node-1', st()), 'node-2', 'target'],
    ['target after completion, before take-over', vmi('node-1', st({ completed: true })), 'node-2', 'target'],
    ['target is done once the VMI is here', vmi('node-2', st({ completed: true })), 'node-2', undefined],
    ['source is done once the VMI left', vmi('node-2', st({ completed: true })), 'node-1', undefined],
    ['a failed migration is not the target\'s business', vmi('node-1', st({ failed: true, completed: true })), 'node-2', undefined],
    ['a bystander node', vmi('node-1', st()), 'node-3', undefined],
  ])('%s', (_n, v, node, role) => {
    expect(migrationRole(v, node)?.role).toBe(role);
  });
});
