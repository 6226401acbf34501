import { describe, expect, it } from 'vitest';
import { defaultDeployment } from './workload-defaults';
import { goStringMap, validateDaemonSet, validateDeployment, validateDeploymentUpdate } from './workload-validation';

const deployment = (spec: Record<string, unknown> = {}) => {
  const d: Record<string, unknown> = {
    metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } }, ...spec },
  };
  defaultDeployment(d);
  return d;
};
const messages = (causes: { field?: string; message?: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);

describe('apps/v1 validation', () => {
  it('accepts a defaulted Deployment', () => {
    expect(validateDeployment(deployment())).toEqual([]);
  });

  it('prints a template label map as Go does, keys sorted', () => {
    expect(goStringMap({ tier: 'a', app: 'b' })).toBe('map[string]string{"app":"b", "tier":"a"}');
  });

  it('refuses a missing or empty selector, and a template the selector does not match', () => {
    expect(messages(validateDeployment(deployment({ selector: undefined })))).toContain('spec.selector: Required value');
    expect(messages(validateDeployment(deployment({ selector: {} })))[0]).toMatch(/^spec.selector: Invalid value: .*: empty selector is invalid for deployment$/);
    expect(messages(validateDeployment(deployment({ selector: { matchLabels: { app: 'other' } } })))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('refuses negative replicas, no containers, restartPolicy Never, 0/0 rolling update, rollingUpdate with Recreate', () => {
    expect(messages(validateDeployment(deployment({ replicas: -1 })))).toEqual(['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
    expect(messages(validateDeployment(deployment({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } } })))).toContain('spec.template.spec.containers: Required value');
    expect(messages(validateDeployment(deployment({ template: { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } }))))
      .toEqual(['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']);
    expect(messages(validateDeployment(deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } }))))
      .toEqual(['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0']);
    expect(messages(validateDeployment(deployment({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }))))
      .toEqual(["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]);
  });

  it('keeps the selector immutable', () => {
    const old = deployment();
    const next = deployment({ selector: { matchLabels: { app: 'web', v: '2' } }, template: { metadata: { labels: { app: 'web', v: '2' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } });
    expect(messages(validateDeploymentUpdate(next, old))[0]).toMatch(/^spec.selector: Invalid value: .*: field is immutable$/);
  });

  it('refuses an unknown DaemonSet update strategy', () => {
    const ds = { spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, updateStrategy: { type: 'Sometimes' } } };
    expect(messages(validateDaemonSet(ds))).toEqual(['spec.updateStrategy.type: Unsupported value: "Sometimes": supported values: "OnDelete", "RollingUpdate"']);
  });
});
