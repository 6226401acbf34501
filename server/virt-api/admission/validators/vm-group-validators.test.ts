import { describe, expect, it } from 'vitest';
import { validateReplicaSet, MISSING_TEMPLATE_MESSAGE, SELECTOR_MISMATCH_MESSAGE } from './replicaset-validator';
import { validatePool, SELECTOR_IMMUTABLE_MESSAGE } from './pool-validator';
import { config, validVM, validVMI } from '../test-fixtures';

type Obj = ReturnType<typeof validVM>;
function validRS(): Obj {
  const vmi = validVMI();
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceReplicaSet', metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: vmi.spec } },
  };
}
function validPool(): Obj {
  const vm = validVM();
  return {
    apiVersion: 'pool.kubevirt.io/v1beta1', kind: 'VirtualMachinePool', metadata: { name: 'pool', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'pool' } }, virtualMachineTemplate: { metadata: { labels: { app: 'pool' } }, spec: vm.spec } },
  };
}

describe('validateReplicaSet (KubeVirt vmirs-admitter)', () => {
  it('accepts a valid replica set', () => {
    expect(validateReplicaSet(validRS(), { config })).toEqual([]);
  });

  it.each<[string, (rs: Obj) => void, string, string]>([
    ['no template', (rs) => { delete rs.spec.template; }, 'spec.template', MISSING_TEMPLATE_MESSAGE],
    ['selector not matching the template labels', (rs) => { rs.spec.template.metadata.labels = { app: 'db' }; }, 'spec.selector', SELECTOR_MISMATCH_MESSAGE],
    ['no selector', (rs) => { delete rs.spec.selector; }, 'spec.selector', SELECTOR_MISMATCH_MESSAGE],
    ['a selector that does not parse', (rs) => { rs.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Near' }] }; }, 'spec.selector', '"Near" is not a valid label selector operator'],
    ['a template disk without its volume', (rs) => { rs.spec.template.spec.domain.devices.disks[0].name = 'x'; },
      'spec.template.spec.domain.devices.disks[0].name', "spec.template.spec.domain.devices.disks[0].Name 'x' not found."],
    ['no memory in the template', (rs) => { rs.spec.template.spec.domain.resources = {}; }, '', "no memory requested, at least one of 'spec.template.spec.domain.memory.guest'"],
  ])('refuses %s', (_n, edit, field, message) => {
    const rs = validRS();
    edit(rs);
    expect(validateReplicaSet(rs, { config })).toContainEqual(expect.objectContaining({ field, message: expect.stringContaining(message) }));
  });
});

describe('validatePool (KubeVirt vmpool-admitter)', () => {
  it('accepts a valid pool', () => {
    expect(validatePool(validPool(), undefined, { config })).toEqual([]);
  });

  it('refuses a missing template, a mismatched selector, a bad VM template and a changed selector', () => {
    const noTemplate = validPool();
    delete noTemplate.spec.virtualMachineTemplate;
    expect(validatePool(noTemplate, undefined, { config })).toEqual([expect.objectContaining({ field: 'spec.virtualMachineTemplate', message: MISSING_TEMPLATE_MESSAGE })]);

    const mismatch = validPool();
    mismatch.spec.virtualMachineTemplate.metadata.labels = {};
    expect(validatePool(mismatch, undefined, { config })).toContainEqual(expect.objectContaining({ field: 'spec.selector', message: SELECTOR_MISMATCH_MESSAGE }));

    const badVM = validPool();
    badVM.spec.virtualMachineTemplate.spec.runStrategy = 'Sometimes';
    expect(validatePool(badVM, undefined, { config })).toContainEqual(expect.objectContaining({ field: 'spec.virtualMachineTemplate.spec.runStrategy', message: 'Invalid RunStrategy (Sometimes)' }));

    const changed = validPool();
    changed.spec.selector = { matchLabels: { app: 'pool', tier: 'x' } };
    changed.spec.virtualMachineTemplate.metadata.labels.tier = 'x';
    expect(validatePool(changed, validPool(), { config })).toEqual([expect.objectContaining({ field: 'spec.selector', message: SELECTOR_IMMUTABLE_MESSAGE })]);
  });
});
