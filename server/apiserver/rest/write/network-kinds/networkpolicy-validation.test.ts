import { describe, expect, it } from 'vitest';
import { defaultNetworkPolicy } from './networkpolicy-strategy';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './networkpolicy-validation';

const np = (spec: Record<string, unknown>) => ({ metadata: { name: 'p', namespace: 'default' }, spec: { podSelector: {}, ...spec } });
const messages = (causes: { field?: string; message: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);
const ingressFrom = (...from: unknown[]) => ({ ingress: [{ from }] });
const ingressPorts = (...ports: unknown[]) => ({ ingress: [{ ports }] });

describe('NetworkPolicy defaults', () => {
  it.each([
    ['no rules: Ingress only', {}, ['Ingress']],
    ['ingress rules: Ingress only', { ingress: [{}] }, ['Ingress']],
    ['egress rules: Ingress and Egress', { egress: [{}] }, ['Ingress', 'Egress']],
    ['an explicit Egress is kept', { policyTypes: ['Egress'] }, ['Egress']],
  ])('%s', (_n, spec, types) => {
    const obj: Record<string, unknown> = { spec };
    defaultNetworkPolicy(obj);
    expect((obj.spec as { policyTypes: string[] }).policyTypes).toEqual(types);
  });

  it('defaults port protocols to TCP and keeps UDP', () => {
    const obj: Record<string, unknown> = { spec: { ingress: [{ ports: [{ port: 80 }, { protocol: 'UDP', port: 53 }] }], egress: [{ ports: [{ port: 'dns' }] }] } };
    defaultNetworkPolicy(obj);
    expect(obj.spec).toMatchObject({ podSelector: {}, ingress: [{ ports: [{ protocol: 'TCP', port: 80 }, { protocol: 'UDP', port: 53 }] }], egress: [{ ports: [{ protocol: 'TCP', port: 'dns' }] }] });
  });
});

describe('validateNetworkPolicy', () => {
  it('accepts a policy using every peer kind, named ports and ranges', () => {
    expect(validateNetworkPolicy(np({
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { app: 'a' } }, namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['x'] }] } }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ protocol: 'TCP', port: 'http' }, { port: 8000, endPort: 9000 }] }],
      egress: [{ to: [{ ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48'] } }] }],
    }))).toEqual([]);
  });

  it.each([
    ['a CIDR that does not parse', ingressFrom({ ipBlock: { cidr: '10.0.0.0/33' } }), 'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    ['an empty CIDR', ingressFrom({ ipBlock: { cidr: '' } }), 'spec.ingress[0].from[0].ipBlock.cidr: Required value'],
    ['an except outside the cidr', ingressFrom({ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }), 'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`'],
    ['an except equal to the cidr', ingressFrom({ ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/16'] } }), 'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`'],
    ['an except that does not parse', ingressFrom({ ipBlock: { cidr: '10.0.0.0/16', except: ['nope'] } }), 'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    ['ipBlock with a selector', ingressFrom({ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }), 'spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer'],
    ['an empty peer', ingressFrom({}), 'spec.ingress[0].from[0]: Required value: must specify a peer'],
    ['port 0', ingressPorts({ protocol: 'TCP', port: 0 }), 'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'],
    ['port 70000', { egress: [{ ports: [{ protocol: 'TCP', port: 70000 }] }] }, 'spec.egress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ['endPort below port', ingressPorts({ protocol: 'TCP', port: 9000, endPort: 8000 }), 'spec.ingress[0].ports[0].endPort: Invalid value: 8000: must be greater than or equal to `port`'],
    ['endPort out of range', ingressPorts({ protocol: 'TCP', port: 9000, endPort: 65536 }), 'spec.ingress[0].ports[0].endPort: Invalid value: 65536: must be between 1 and 65535, inclusive'],
    ['endPort with a named port', ingressPorts({ protocol: 'TCP', port: 'http', endPort: 90 }), 'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric'],
    ['endPort without a port', ingressPorts({ protocol: 'TCP', endPort: 90 }), 'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is not specified'],
    ['a bad port name', ingressPorts({ protocol: 'TCP', port: 'Web_1' }), 'spec.ingress[0].ports[0].port: Invalid value: "Web_1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
    ['a port name without letters', ingressPorts({ protocol: 'TCP', port: '80-80' }), 'must contain at least one letter (a-z)'],
    ['an unknown protocol', ingressPorts({ protocol: 'ICMP', port: 1 }), 'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
    ['an unknown policy type', { policyTypes: ['Ingress', 'Sideways'] }, 'spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Egress", "Ingress"'],
    ['three policy types', { policyTypes: ['Ingress', 'Egress', 'Ingress'] }, 'spec.policyTypes: Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes'],
    ['a bad label value in podSelector', { podSelector: { matchLabels: { app: 'a b' } } }, 'spec.podSelector.matchLabels: Invalid value: "a b": a valid label must be an empty string'],
    ['a bad operator', ingressFrom({ namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } }), 'spec.ingress[0].from[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'],
    ['In without values', ingressFrom({ podSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] } }), "spec.ingress[0].from[0].podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ['Exists with values', ingressFrom({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } }), "spec.ingress[0].from[0].podSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
    ['a bad key', ingressFrom({ podSelector: { matchExpressions: [{ key: '-a', operator: 'Exists' }] } }), 'spec.ingress[0].from[0].podSelector.matchExpressions[0].key: Invalid value: "-a": name part must consist of'],
  ])('refuses %s', (_n, spec, expected) => {
    expect(messages(validateNetworkPolicy(np(spec))).join('\n')).toContain(expected);
  });

  it('lets an update keep a CIDR the stored policy already had', () => {
    const old = np(ingressFrom({ ipBlock: { cidr: '10.0.0.0/99' } }));
    expect(validateNetworkPolicyUpdate(np({ ...ingressFrom({ ipBlock: { cidr: '10.0.0.0/99' } }), ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/99' } }], ports: [{ protocol: 'TCP', port: 80 }] }] }), old)).toEqual([]);
    expect(validateNetworkPolicyUpdate(np(ingressFrom({ ipBlock: { cidr: '10.0.0.0/98' } })), old)).toHaveLength(1);
  });
});
