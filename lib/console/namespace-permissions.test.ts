import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withPhase, withRunStrategy } from '../kubevirt/test-builders';
import { allowedActions, computeActionAvailability } from './vm-actions';
import { actionAttributes, mayActOnVMs, namespacePermissions, rulesAllow, type ResourceRule } from './namespace-permissions';

const SUB = 'subresources.kubevirt.io';
// the shape of kubevirt.io:edit / kubevirt.io:view / kubevirt.io:migrate as a rules review returns them
const EDIT: ResourceRule[] = [
  { verbs: ['get'], apiGroups: [SUB], resources: ['virtualmachineinstances/console', 'virtualmachineinstances/vnc'] },
  { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachineinstances/pause', 'virtualmachineinstances/unpause', 'virtualmachineinstances/softreboot'] },
  { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachines/start', 'virtualmachines/stop', 'virtualmachines/restart'] },
  { verbs: ['get', 'delete', 'create', 'update', 'patch', 'list', 'watch'], apiGroups: ['kubevirt.io'], resources: ['virtualmachines', 'virtualmachineinstances'] },
];
const VIEW: ResourceRule[] = [{ verbs: ['get', 'list', 'watch'], apiGroups: ['kubevirt.io'], resources: ['virtualmachines', 'virtualmachineinstances', 'virtualmachineinstancemigrations'] }];
const MIGRATE: ResourceRule[] = [
  { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachines/migrate'] },
  { verbs: ['get', 'delete', 'create', 'update', 'patch', 'list', 'watch'], apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstancemigrations'] },
];
const ADMIN: ResourceRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
const running = () => [newVM(withRunStrategy('Always')), newVMI(withPhase('Running'))] as const;

describe('rulesAllow (RBAC matching)', () => {
  it.each<[string, ResourceRule, boolean]>([
    ['exact resource/subresource', { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachines/stop'] }, true],
    ['the resource alone does not grant its subresource', { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachines'] }, false],
    ['*/subresource', { verbs: ['update'], apiGroups: [SUB], resources: ['*/stop'] }, true],
    ['wildcards everywhere', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, true],
    ['another verb', { verbs: ['get'], apiGroups: [SUB], resources: ['virtualmachines/stop'] }, false],
    ['another group', { verbs: ['update'], apiGroups: ['kubevirt.io'], resources: ['virtualmachines/stop'] }, false],
    ['another subresource', { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachines/start'] }, false],
    ['only named objects', { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachines/stop'], resourceNames: ['a'] }, false],
  ])('%s', (_n, rule, want) => {
    expect(rulesAllow([rule], actionAttributes('stop'))).toBe(want);
  });

  it('a resourceNames rule grants only the names it lists', () => {
    const rule: ResourceRule = { verbs: ['delete'], apiGroups: ['kubevirt.io'], resources: ['virtualmachines'], resourceNames: ['a'] };
    expect(rulesAllow([rule], { ...actionAttributes('delete'), name: 'a' })).toBe(true);
    expect(rulesAllow([rule], { ...actionAttributes('delete'), name: 'b' })).toBe(false);
  });
});

describe('namespacePermissions → the buttons a VM shows', () => {
  it('edit: every lifecycle action but migrate; create, YAML, consoles', () => {
    const p = namespacePermissions('a', EDIT);
    const [vm, vmi] = running();
    expect(allowedActions(vm, vmi, { permissions: p })).toEqual(['stop', 'forceStop', 'restart', 'pause', 'softReboot', 'delete']);
    expect(computeActionAvailability(vm, vmi, { permissions: p }).migrate).toBe('You may not migrate VMs in namespace a');
    expect([p.createVM, p.updateVM, p.patchVM, p.vnc, p.serialConsole, p.cancelMigration]).toEqual([true, true, true, true, true, false]);
    expect(mayActOnVMs(p)).toBe(true);
  });

  it('edit plus kubevirt.io:migrate offers Migrate and cancelling a migration', () => {
    const p = namespacePermissions('a', [...EDIT, ...MIGRATE]);
    const [vm, vmi] = running();
    expect(allowedActions(vm, vmi, { permissions: p })).toContain('migrate');
    expect(p.cancelMigration).toBe(true);
  });

  it('view: nothing to do, and each action says which namespace refuses it', () => {
    const p = namespacePermissions('b', VIEW);
    const [vm, vmi] = running();
    expect(allowedActions(vm, vmi, { permissions: p })).toEqual([]);
    expect(computeActionAvailability(vm, vmi, { permissions: p }).stop).toBe('You may not stop VMs in namespace b');
    expect(mayActOnVMs(p)).toBe(false);
    expect(p.createVM).toBe(false);
  });

  it('storage and VM groups: PVC delete and the scale subresources, each by its own group', () => {
    const p = namespacePermissions('a', [
      { verbs: ['delete'], apiGroups: [''], resources: ['persistentvolumeclaims'] },
      { verbs: ['patch'], apiGroups: ['pool.kubevirt.io'], resources: ['virtualmachinepools/scale'] },
    ]);
    expect([p.deletePVC, p.scalePool, p.scaleReplicaSet]).toEqual([true, true, false]);
    expect(namespacePermissions('a', [{ verbs: ['delete'], apiGroups: ['kubevirt.io'], resources: ['persistentvolumeclaims'] }]).deletePVC).toBe(false);
  });

  it('no rules at all (a namespace with no binding) is the same as view', () => {
    expect(mayActOnVMs(namespacePermissions('c', []))).toBe(false);
  });

  it('admin (all wildcards): what the state allows, no more', () => {
    const [vm, vmi] = running();
    expect(allowedActions(vm, vmi, { permissions: namespacePermissions('a', ADMIN) })).toEqual(allowedActions(vm, vmi, { canWrite: true }));
    expect(allowedActions(vm, undefined, { permissions: namespacePermissions('a', ADMIN) })).toEqual(['stop', 'delete']);
  });

  it('the VM state still refuses what RBAC allows, with its own reason', () => {
    const vm = newVM(withRunStrategy('Halted'));
    expect(computeActionAvailability(vm, undefined, { permissions: namespacePermissions('a', EDIT) }).stop).toMatch(/not running|halted|stopped/i);
  });
});
