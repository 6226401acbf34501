import { describe, expect, it } from 'vitest';
import { validateResourceQuota } from './quota-validation';

const messages = (spec: unknown) => validateResourceQuota({ spec }).map((c) => `${c.field}: ${c.message}`);

describe('ResourceQuota validation (kube ValidateResourceQuota)', () => {
  it.each<[string, unknown, string[]]>([
    ['compute and counts are valid', { hard: { 'requests.cpu': '1', 'limits.memory': '1Gi', pods: '10', 'count/virtualmachines.kubevirt.io': '3', 'requests.hugepages-2Mi': '1Gi' } }, []],
    ['an unknown resource name', { hard: { memroy: '1Gi' } }, ['spec.hard[memroy]: Invalid value: "memroy": must be a standard resource for quota']],
    ['a negative quantity', { hard: { memory: '-1Gi' } }, ['spec.hard[memory]: Invalid value: "-1Gi": must be greater than or equal to 0']],
    ['a fractional object count', { hard: { pods: '1.5' } }, ['spec.hard[pods]: Invalid value: "1.5": must be an integer']],
    ['supported scopes', { hard: { pods: '1' }, scopes: ['BestEffort', 'NotTerminating'] }, []],
    ['a kube scope this server does not support', { hard: { pods: '1' }, scopes: ['PriorityClass'] },
      ['spec.scopes[0]: Unsupported value: "PriorityClass": supported values: "BestEffort", "NotBestEffort", "NotTerminating", "Terminating"']],
    ['an unknown scope', { hard: { pods: '1' }, scopes: ['Sometimes'] },
      ['spec.scopes[0]: Unsupported value: "Sometimes": supported values: "BestEffort", "CrossNamespacePodAffinity", "NotBestEffort", "NotTerminating", "PriorityClass", "Terminating"']],
    ['conflicting scopes', { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] }, ['spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes']],
    ['a scope on a non-pod resource', { hard: { configmaps: '1' }, scopes: ['BestEffort'] }, ['spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource']],
    ['hard that is not a map', { hard: ['memory'] }, ['spec.hard: Invalid value: ["memory"]: must be a map of resource names to quantities']],
    ['scopes that are not a list', { hard: { pods: '1' }, scopes: 'BestEffort' }, ['spec.scopes: Invalid value: "BestEffort": must be a list of scopes']],
    ['scopeSelector is refused', { hard: { pods: '1' }, scopeSelector: { matchExpressions: [] } }, ['spec.scopeSelector: Forbidden: scopeSelector is not supported by this API server (use spec.scopes)']],
  ])('%s', (_, spec, want) => { expect(messages(spec)).toEqual(want); });
});
