import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../../../lib/kubevirt/quantity';
import { autoLimitsFor, memoryLimitRatio, type QuotaLike } from './auto-resource-limits';
import { renderLauncherPod } from './render-launcher-pod';
import { newVMI } from './testing-builders';

const quota = (hard: Record<string, string>, namespace = 'default'): QuotaLike => ({ metadata: { namespace }, spec: { hard } });
const vmi = (limits?: Record<string, string>) => {
  const v = newVMI();
  v.metadata.namespace = 'default';
  v.spec!.domain!.resources = { requests: { memory: '256Mi' }, ...(limits ? { limits } : {}) };
  return v;
};

describe('automatic resource limits (KubeVirt doesVMIRequireAutoResourceLimits)', () => {
  it.each<[string, QuotaLike[], Record<string, string> | undefined, object]>([
    ['no quota: no limits', [], undefined, {}],
    ['a quota on memory (requests) only: no limits', [quota({ memory: '1Gi' })], undefined, {}],
    ['limits.memory and limits.cpu quota', [quota({ 'limits.memory': '1Gi', 'limits.cpu': '1500m' })], undefined, { memoryRatio: 2, cpu: true }],
    ['a quota in another namespace does not count', [quota({ 'limits.memory': '1Gi' }, 'other')], undefined, {}],
    ['the VMI sets its own limits', [quota({ 'limits.memory': '1Gi', 'limits.cpu': '2' })], { memory: '512Mi', cpu: '1' }, {}],
  ])('%s', (_, quotas, limits, want) => {
    expect(autoLimitsFor(vmi(limits), quotas)).toEqual(want);
  });

  it.each<[Record<string, string> | undefined, number]>([
    [undefined, 2], [{ 'alpha.kubevirt.io/auto-memory-limits-ratio': '1.5' }, 1.5], [{ 'alpha.kubevirt.io/auto-memory-limits-ratio': '0.5' }, 2],
    [{ 'alpha.kubevirt.io/auto-memory-limits-ratio': 'lots' }, 2],
  ])('namespace labels %j → ratio %d', (labels, want) => { expect(memoryLimitRatio(labels)).toBe(want); });

  it('the launcher Pod gets memory = request × ratio and cpu = vCPUs; every container is limited', () => {
    const v = vmi();
    const pod = renderLauncherPod(v, { autoLimits: (x) => autoLimitsFor(x, [quota({ 'limits.memory': '2Gi', 'limits.cpu': '2' })]) });
    const [compute, ...others] = pod.spec!.containers;
    const request = parseQuantity(compute.resources!.requests!.memory)!;
    expect(parseQuantity(compute.resources!.limits!.memory)).toBe(2 * request);
    expect(compute.resources!.limits!.cpu).toBe('1');
    for (const c of others) expect(c.resources?.limits).toMatchObject({ memory: expect.any(String), cpu: expect.any(String) });
  });
});
