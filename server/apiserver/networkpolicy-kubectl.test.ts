import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlWithToken, type Kubectl } from '../../e2e/support/kubectl';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
let k: Kubectl;
const kubectl = (...args: string[]) => k.run(...args);
const manifest = (name: string, text: string) => k.file(name, text);

const POLICIES = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-all}
spec:
  podSelector: {}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
  - from: [{podSelector: {matchLabels: {role: client}}}]
    ports: [{port: 8080}]
  egress:
  - to: [{ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}}]
`;

const BAD = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: bad}
spec:
  podSelector: {}
  ingress:
  - from: [{ipBlock: {cidr: 10.0.0.0/16, except: [10.9.0.0/24]}}]
    ports: [{port: 9000, endPort: 80}]
`;

beforeAll(async () => {
  t = await startTestServer();
  k = kubectlWithToken(t.srv, t.srv.adminToken);
});
afterAll(async () => {
  await t?.close();
  k?.dispose();
});

describe('kubectl and NetworkPolicy', () => {
  it('applies policies, defaults them as kube does and lists them as `netpol` with kube\'s columns and describes them', async () => {
    const applied = await kubectl('apply', '-f', manifest('np.yaml', POLICIES));
    expect(applied.err).toBe('');
    expect(applied.out).toContain('networkpolicy.networking.k8s.io/web created');
    const table = await kubectl('get', 'netpol');
    expect(table.out).toMatch(/^NAME\s+POD-SELECTOR\s+AGE\n/);
    expect(table.out).toMatch(/\ndeny-all\s+<none>\s+\d+s\n/);
    expect(table.out).toMatch(/\nweb\s+app=web\s+\d+s\n/);
    const web = JSON.parse((await kubectl('get', 'networkpolicy', 'web', '-o', 'json')).out);
    expect(web.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(web.spec.ingress[0].ports).toEqual([{ protocol: 'TCP', port: 8080 }]);
    const denyAll = JSON.parse((await kubectl('get', 'netpol', 'deny-all', '-o', 'json')).out);
    expect(denyAll.spec.policyTypes).toEqual(['Ingress']);
    const described = await kubectl('describe', 'netpol', 'web');
    expect(described.err).toBe('');
    expect(described.out).toMatch(/PodSelector:\s+app=web/);
    expect(described.out).toContain('To Port: 8080/TCP');
    expect(described.out).toMatch(/CIDR: 10\.0\.0\.0\/8\s+Except: 10\.1\.0\.0\/16/);
    expect(described.out).toContain('Policy Types: Ingress, Egress');
  });

  it('refuses an invalid policy with kube\'s 422 messages', async () => {
    const r = await kubectl('apply', '-f', manifest('bad.yaml', BAD));
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('The NetworkPolicy "bad" is invalid');
    expect(r.err).toContain('spec.ingress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`');
    expect(r.err).toContain('spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.9.0.0/24": must be a strict subset of `cidr`');
  });

  it('refuses a bad policy type on update too', async () => {
    const r = await kubectl('patch', 'netpol', 'deny-all', '--type=merge', '-p', '{"spec":{"policyTypes":["Inbound"]}}');
    expect(r.err).toContain('spec.policyTypes[0]: Unsupported value: "Inbound": supported values: "Egress", "Ingress"');
  });
});
