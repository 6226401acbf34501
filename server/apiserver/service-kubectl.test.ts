import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlWithToken, type Kubectl } from '../../e2e/support/kubectl';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
let k: Kubectl;
const kubectl = (...args: string[]) => k.run(...args);
const manifest = (name: string, text: string) => k.file(name, text);

const svcJson = async (name: string) => {
  const r = await kubectl('get', 'svc', name, '-o', 'json');
  expect(r.err).toBe('');
  return JSON.parse(r.out);
};

beforeAll(async () => {
  t = await startTestServer();
  k = kubectlWithToken(t.srv, t.srv.adminToken);
});
afterAll(async () => {
  await t?.close();
  k?.dispose();
});

describe('Services through kubectl 1.32', () => {
  it('serves default/kubernetes at 10.96.0.1 with its Endpoints pointing at the API server', async () => {
    const svc = await svcJson('kubernetes');
    expect(svc.spec).toMatchObject({ clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: t.srv.port }] });
    const ep = await kubectl('get', 'endpoints', 'kubernetes');
    expect(ep.out).toMatch(new RegExp(`^NAME\\s+ENDPOINTS\\s+AGE\\nkubernetes\\s+127\\.0\\.0\\.1:${t.srv.port}\\s+\\d+s\\n$`));
  });

  it('`kubectl create service clusterip` gets a cluster IP from 10.96.0.0/16 and kube\'s defaults', async () => {
    const r = await kubectl('create', 'service', 'clusterip', 'web', '--tcp=80:8080');
    expect(r.err).toBe('');
    const svc = await svcJson('web');
    expect(svc.spec.clusterIP).toMatch(/^10\.96\.\d+\.\d+$/);
    expect(svc.spec.clusterIP).not.toBe('10.96.0.1');
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP', sessionAffinity: 'None', clusterIPs: [svc.spec.clusterIP], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster',
      ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
    });
    const table = await kubectl('get', 'svc', 'web');
    expect(table.out).toMatch(new RegExp(`^NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE\\nweb\\s+ClusterIP\\s+${svc.spec.clusterIP.replace(/\./g, '\\.')}\\s+<none>\\s+80/TCP\\s+\\d+s\\n$`));
  });

  it('a NodePort Service gets a node port in 30000-32767, shown as port:nodePort/TCP', async () => {
    const r = await kubectl('create', 'service', 'nodeport', 'np', '--tcp=8080:80');
    expect(r.err).toBe('');
    const svc = await svcJson('np');
    const nodePort = svc.spec.ports[0].nodePort;
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    expect(nodePort).toBeLessThanOrEqual(32767);
    expect(svc.spec.externalTrafficPolicy).toBe('Cluster');
    expect((await kubectl('get', 'svc', 'np')).out).toMatch(new RegExp(`np\\s+NodePort\\s+10\\.96\\.\\d+\\.\\d+\\s+<none>\\s+8080:${nodePort}/TCP`));
  });

  it('`kubectl expose pod --type=NodePort` selects the Pod\'s labels and gets a node port', async () => {
    const pod = manifest('pod.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: exposed, labels: {app: exposed}}\nspec:\n  containers: [{name: c, image: x, ports: [{containerPort: 8080}]}]\n');
    expect((await kubectl('create', '-f', pod)).err).toBe('');
    const r = await kubectl('expose', 'pod', 'exposed', '--port=80', '--target-port=8080', '--type=NodePort');
    expect(r.err).toBe('');
    expect(r.out).toBe('service/exposed exposed\n');
    const svc = await svcJson('exposed');
    expect(svc.spec.selector).toEqual({ app: 'exposed' });
    expect(svc.spec.ports[0]).toMatchObject({ port: 80, targetPort: 8080, protocol: 'TCP' });
    expect(svc.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
  });

  it('refuses a port out of range, a taken cluster IP and a taken node port with kube\'s messages', async () => {
    const bad = await kubectl('create', '-f', manifest('bad.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: bad}\nspec:\n  ports: [{port: 70000, targetPort: 80}]\n'));
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('The Service "bad" is invalid: spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive');
    const taken = await kubectl('create', 'service', 'clusterip', 'taken', '--tcp=80', '--clusterip=10.96.0.1');
    expect(taken.err).toContain('Service "taken" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated');
    const outside = await kubectl('create', 'service', 'clusterip', 'outside', '--tcp=80', '--clusterip=10.97.0.1');
    expect(outside.err).toContain('failed to allocate IP 10.97.0.1: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/16');
    const used = (await svcJson('np')).spec.ports[0].nodePort;
    const clash = await kubectl('create', 'service', 'nodeport', 'clash', '--tcp=80', `--node-port=${used}`);
    expect(clash.err).toContain(`Service "clash" is invalid: spec.ports[0].nodePort: Invalid value: ${used}: provided port is already allocated`);
  });

  it('keeps the cluster IP on apply without one, refuses changing it, and frees it on delete', async () => {
    const path = manifest('fixed.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: fixed}\nspec:\n  clusterIP: 10.96.0.50\n  selector: {app: fixed}\n  ports: [{port: 80}]\n');
    expect((await kubectl('apply', '-f', path)).err).toBe('');
    const noIP = manifest('fixed2.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: fixed}\nspec:\n  selector: {app: fixed2}\n  ports: [{port: 80}]\n');
    expect((await kubectl('replace', '-f', noIP)).err).toBe('');
    expect((await svcJson('fixed')).spec).toMatchObject({ clusterIP: '10.96.0.50', selector: { app: 'fixed2' } });
    const moved = await kubectl('patch', 'svc', 'fixed', '--type=merge', '-p', '{"spec":{"clusterIP":"10.96.0.51","clusterIPs":["10.96.0.51"]}}');
    expect(moved.err).toContain('spec.clusterIPs[0]: Invalid value: []string{"10.96.0.51"}: may not change once set');
    expect((await kubectl('delete', 'svc', 'fixed')).err).toBe('');
    expect((await kubectl('create', 'service', 'clusterip', 'again', '--tcp=80', '--clusterip=10.96.0.50')).err).toBe('');
  });

  it('lists EndpointSlices with kube\'s columns', async () => {
    expect((await kubectl('api-resources', '--api-group=discovery.k8s.io')).out).toMatch(/endpointslices\s+discovery.k8s.io\/v1\s+true\s+EndpointSlice/);
    const r = await kubectl('get', 'endpointslices');
    expect(r.out).toMatch(new RegExp(`^NAME\\s+ADDRESSTYPE\\s+PORTS\\s+ENDPOINTS\\s+AGE\\nkubernetes\\s+IPv4\\s+${t.srv.port}\\s+127\\.0\\.0\\.1\\s+\\d+s\\n$`));
  });
});
