import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPKI } from './admission/testing/test-pki';
import { kubectlWithToken, type Kubectl } from '../../e2e/support/kubectl';
import { startTestServer, type TestServer } from './testing/test-server';

/** RBAC as kubectl 1.32 sees it: bindings to view / edit / admin / kubevirt.io:migrate, `auth can-i`, real requests, escalation. */
let t: TestServer;
let k: Kubectl;
let viewer: Kubectl;
let backend: Server;

/** a stand-in for virt-api: discovery of subresources.kubevirt.io, and every subresource call answered 202 with the caller */
const SUBRESOURCES = [
  ...['start', 'stop', 'restart', 'migrate', 'portforward', 'expand-spec'].map((s) => `virtualmachines/${s}`),
  ...['vnc', 'vnc/screenshot', 'console', 'portforward', 'guestosinfo', 'pause', 'unpause'].map((s) => `virtualmachineinstances/${s}`),
];
async function startFakeVirtApi(): Promise<void> {
  const pki = createTestPKI(['virt-api.kubevirt.svc']);
  backend = createServer({ cert: pki.certPem, key: pki.keyPem }, (req, res) => {
    res.writeHead(req.url === '/apis/subresources.kubevirt.io/v1' ? 200 : 202, { 'Content-Type': 'application/json' });
    if (req.url === '/apis/subresources.kubevirt.io/v1') {
      return void res.end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'subresources.kubevirt.io/v1', resources: SUBRESOURCES.map((name) => ({ name, singularName: '', namespaced: true, kind: name.startsWith('virtualmachines/') ? 'VirtualMachine' : 'VirtualMachineInstance', verbs: ['get', 'update'] })) }));
    }
    res.end(JSON.stringify({ url: req.url, user: req.headers['x-remote-user'] }));
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  const port = (backend.address() as AddressInfo).port;
  await t.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kubevirt' } });
  await t.call('POST', '/api/v1/namespaces/kubevirt/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'virt-api' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }] });
  const svc = await t.call('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.subresources.kubevirt.io' },
    spec: { group: 'subresources.kubevirt.io', version: 'v1', service: { namespace: 'kubevirt', name: 'virt-api', port }, caBundle: pki.caBundle, groupPriorityMinimum: 1000, versionPriority: 15 },
  });
  expect(svc.status).toBe(201);
}

const kubectl = (...args: string[]) => k.run(...args);
const manifest = (name: string, text: string) => k.file(name, text);

beforeAll(async () => {
  t = await startTestServer();
  k = kubectlWithToken(t.srv, t.srv.adminToken);
  viewer = kubectlWithToken(t.srv, t.srv.viewerToken, { sharing: k });
  await startFakeVirtApi();
  for (const args of [
    ['create', 'namespace', 'team'],
    ['create', 'rolebinding', 'alice-view', '--clusterrole=view', '--user=alice', '-n', 'team'],
    ['create', 'rolebinding', 'bob-edit', '--clusterrole=edit', '--user=bob', '-n', 'team'],
    ['create', 'rolebinding', 'carol-admin', '--clusterrole=admin', '--user=carol', '-n', 'team'],
    ['create', 'clusterrolebinding', 'dave-migrate', '--clusterrole=kubevirt.io:migrate', '--user=dave'],
  ]) {
    const r = await kubectl(...args);
    expect(r.err).toBe('');
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((r) => backend?.close(r));
  k?.dispose();
});

const VM = 'virtualmachines.kubevirt.io';
const VMI = 'virtualmachineinstances.kubevirt.io';
const VMIM = 'virtualmachineinstancemigrations.kubevirt.io';
const SUB_VM = 'virtualmachines.subresources.kubevirt.io';
const SUB_VMI = 'virtualmachineinstances.subresources.kubevirt.io';

describe('kubectl auth can-i answers by RBAC (KubeVirt roles aggregated into view / edit / admin)', () => {
  it.concurrent.each<[string, string, string, string | undefined, 'yes' | 'no']>([
    ['alice', 'get', VM, undefined, 'yes'],
    ['alice', 'list', VMI, undefined, 'yes'],
    ['alice', 'create', VM, undefined, 'no'],
    ['alice', 'update', SUB_VM, 'start', 'no'],
    ['alice', 'get', SUB_VMI, 'vnc', 'no'],
    ['alice', 'get', SUB_VMI, 'console', 'no'],
    ['alice', 'get', SUB_VMI, 'portforward', 'no'],
    ['alice', 'get', SUB_VMI, 'guestosinfo', 'yes'],
    ['alice', 'list', 'pods', undefined, 'yes'],
    ['alice', 'get', 'secrets', undefined, 'no'],
    ['alice', 'list', 'services', undefined, 'yes'],
    ['bob', 'create', VM, undefined, 'yes'],
    ['bob', 'delete', VMI, undefined, 'yes'],
    ['bob', 'deletecollection', VM, undefined, 'no'],
    ['bob', 'update', SUB_VM, 'start', 'yes'],
    ['bob', 'get', SUB_VMI, 'vnc', 'yes'],
    ['bob', 'get', SUB_VMI, 'console', 'yes'],
    ['bob', 'get', SUB_VMI, 'portforward', 'yes'],
    ['bob', 'update', SUB_VM, 'migrate', 'no'],
    ['bob', 'create', VMIM, undefined, 'no'],
    ['bob', 'create', 'secrets', undefined, 'yes'],
    ['bob', 'create', 'services', undefined, 'yes'],
    ['bob', 'create', 'rolebindings.rbac.authorization.k8s.io', undefined, 'no'],
    ['carol', 'deletecollection', VM, undefined, 'yes'],
    ['carol', 'create', 'rolebindings.rbac.authorization.k8s.io', undefined, 'yes'],
    ['carol', 'get', SUB_VMI, 'vnc', 'yes'],
    ['carol', 'update', SUB_VM, 'migrate', 'no'],
    ['carol', 'delete', 'pods', undefined, 'yes'],
    ['dave', 'update', SUB_VM, 'migrate', 'yes'],
    ['dave', 'create', VMIM, undefined, 'yes'],
    ['dave', 'get', VM, undefined, 'no'],
    ['dave', 'get', 'pods', undefined, 'no'],
  ])('%s: %s %s %s → %s', async (user, verb, resource, sub, expected) => {
    if (sub) {
      // kubectl's can-i maps a resource through discovery, and subresources.kubevirt.io lists only subresources:
      // ask as virt-api and the console do, with a SubjectAccessReview
      const [plural, ...group] = resource.split('.');
      const review = manifest(`sar-${user}-${verb}-${plural}-${sub}.json`, JSON.stringify({
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: { user, groups: ['system:authenticated'], resourceAttributes: { namespace: 'team', verb, group: group.join('.'), resource: plural, subresource: sub } },
      }));
      const r = await kubectl('create', '-f', review, '-o', 'jsonpath={.status.allowed}');
      expect(r.err).toBe('');
      expect(r.out).toBe(expected === 'yes' ? 'true' : 'false');
      return;
    }
    const r = await kubectl('auth', 'can-i', verb, resource, '-n', 'team', '--as', user);
    expect(r.out.trim()).toBe(expected);
    expect(r.code).toBe(expected === 'yes' ? 0 : 1);
  });

  const CONTROLLER = 'system:serviceaccount:kubevirt:kubevirt-controller';
  const HANDLER = 'system:serviceaccount:kubevirt:kubevirt-handler';
  const VIRT_API = 'system:serviceaccount:kubevirt:kubevirt-apiserver';
  it.concurrent.each<[string, string, string, 'yes' | 'no']>([
    [CONTROLLER, 'create', 'pods', 'yes'],
    [CONTROLLER, 'create', VMI, 'yes'],
    [CONTROLLER, 'update', 'virtualmachineinstances.kubevirt.io/status', 'yes'],
    [CONTROLLER, 'get', 'secrets', 'no'],
    [CONTROLLER, 'create', 'clusterrolebindings.rbac.authorization.k8s.io', 'no'],
    [HANDLER, 'patch', 'virtualmachineinstances.kubevirt.io/status', 'yes'],
    [HANDLER, 'patch', 'nodes', 'yes'],
    [HANDLER, 'create', 'pods', 'no'],
    [HANDLER, 'watch', 'pods', 'yes'], // the launcher Pods on its node: the VMI's Ready follows them while Running
    [HANDLER, 'update', 'pods', 'no'],
    [HANDLER, 'update', VM, 'no'],
    [VIRT_API, 'create', 'subjectaccessreviews.authorization.k8s.io', 'yes'],
    [VIRT_API, 'create', VMIM, 'yes'],
    [VIRT_API, 'delete', VM, 'no'],
    [VIRT_API, 'list', 'secrets', 'no'],
  ])('component %s: %s %s → %s', async (user, verb, resource, expected) => {
    const [res, sub] = resource.split('/');
    const r = await kubectl('auth', 'can-i', verb, res, ...(sub ? [`--subresource=${sub}`] : []), '-n', 'team', '--as', user);
    expect(r.out.trim()).toBe(expected);
  });

  it('a namespace binding grants nothing elsewhere', async () => {
    expect((await kubectl('auth', 'can-i', 'get', VM, '-n', 'default', '--as', 'bob')).out.trim()).toBe('no');
  });

  it('the kv:viewers group reads VMs everywhere and no secrets', async () => {
    expect((await kubectl('auth', 'can-i', 'list', VM, '-A', '--as', 'someone', '--as-group', 'kv:viewers')).out.trim()).toBe('yes');
    expect((await kubectl('auth', 'can-i', 'get', 'secrets', '-n', 'team', '--as', 'someone', '--as-group', 'kv:viewers')).out.trim()).toBe('no');
  });

  it('--list shows the user\'s rules in the namespace', async () => {
    const r = await kubectl('auth', 'can-i', '--list', '-n', 'team', '--as', 'alice');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^virtualmachines\.kubevirt\.io\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(r.out).toMatch(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    expect(r.out).not.toMatch(/^secrets\s/m);
  });
});

describe('real requests as those users', () => {
  it('view reads VMs and cannot create a Secret, with kube\'s Forbidden message', async () => {
    expect((await kubectl('get', 'vms', '-n', 'team', '--as', 'alice')).err).toBe('No resources found in team namespace.\n');
    const r = await kubectl('create', 'secret', 'generic', 's', '--from-literal=a=b', '-n', 'team', '--as', 'alice');
    expect(r.err).toBe('error: failed to create secret secrets is forbidden: User "alice" cannot create resource "secrets" in API group "" in the namespace "team"\n');
  });

  it('edit creates a Secret and a Service', async () => {
    expect((await kubectl('create', 'secret', 'generic', 's', '--from-literal=a=b', '-n', 'team', '--as', 'bob')).out).toBe('secret/s created\n');
    expect((await kubectl('create', 'service', 'clusterip', 'web', '--tcp=80:8080', '-n', 'team', '--as', 'bob')).out).toBe('service/web created\n');
  });

  it('subresource calls reach virt-api only when allowed, as the impersonated user', async () => {
    const body = manifest('empty.json', '{}');
    const start = '/apis/subresources.kubevirt.io/v1/namespaces/team/virtualmachines/vm1/start';
    const ok = await kubectl('replace', '--raw', start, '-f', body, '--as', 'bob');
    expect(JSON.parse(ok.out)).toEqual({ url: `${start}?timeout=20s`, user: 'bob' });
    const denied = await kubectl('replace', '--raw', start, '-f', body, '--as', 'alice');
    expect(denied.err).toBe('Error from server (Forbidden): virtualmachines.subresources.kubevirt.io "vm1" is forbidden: User "alice" cannot update resource "virtualmachines/start" in API group "subresources.kubevirt.io" in the namespace "team"\n');
    const vnc = await kubectl('get', '--raw', '/apis/subresources.kubevirt.io/v1/namespaces/team/virtualmachineinstances/vm1/vnc', '--as', 'alice');
    expect(vnc.err).toContain('cannot get resource "virtualmachineinstances/vnc" in API group "subresources.kubevirt.io"');
    const migrate = '/apis/subresources.kubevirt.io/v1/namespaces/team/virtualmachines/vm1/migrate';
    expect(JSON.parse((await kubectl('replace', '--raw', migrate, '-f', body, '--as', 'dave')).out).user).toBe('dave');
    expect((await kubectl('replace', '--raw', migrate, '-f', body, '--as', 'carol')).err).toContain('cannot update resource "virtualmachines/migrate"');
  });

  it('a user cannot impersonate without the impersonate verb', async () => {
    const r = await viewer.run('get', 'pods', '-n', 'team', '--as', 'alice');
    expect(r.err).toContain('Error from server (Forbidden): users "alice" is forbidden: User "viewer" cannot impersonate resource "users" in API group "" at the cluster scope\n');
  });
});

describe('escalation prevention', () => {
  it('admin of a namespace binds view there (holds every right in it)', async () => {
    expect((await kubectl('create', 'rolebinding', 'erin-view', '--clusterrole=view', '--user=erin', '-n', 'team', '--as', 'carol')).out).toBe('rolebinding.rbac.authorization.k8s.io/erin-view created\n');
    expect((await kubectl('auth', 'can-i', 'list', VM, '-n', 'team', '--as', 'erin')).out.trim()).toBe('yes');
  });

  it('but cannot bind cluster-admin: kube\'s message names what is not held', async () => {
    const r = await kubectl('create', 'rolebinding', 'erin-root', '--clusterrole=cluster-admin', '--user=erin', '-n', 'team', '--as', 'carol');
    expect(r.err).toMatch(/^error: failed to create rolebinding: rolebindings\.rbac\.authorization\.k8s\.io "erin-root" is forbidden: user "carol" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}/);
  });

  it('nor write a Role with rights she lacks; one within her rights is fine', async () => {
    const ok = await kubectl('create', 'role', 'pod-reader', '--verb=get', '--resource=pods', '-n', 'team', '--as', 'carol');
    expect(ok.out).toBe('role.rbac.authorization.k8s.io/pod-reader created\n');
    const bad = await kubectl('create', 'role', 'node-reader', '--verb=get', '--resource=nodes', '-n', 'team', '--as', 'carol');
    expect(bad.err).toBe('Error from server (Forbidden): roles.rbac.authorization.k8s.io "node-reader" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}\n');
  });

  it('a binding to a new Role takes effect at once', async () => {
    expect((await kubectl('auth', 'can-i', 'get', 'pods', '-n', 'team', '--as', 'frank')).out.trim()).toBe('no');
    expect((await kubectl('create', 'rolebinding', 'frank-pods', '--role=pod-reader', '--user=frank', '-n', 'team')).err).toBe('');
    expect((await kubectl('auth', 'can-i', 'get', 'pods', '-n', 'team', '--as', 'frank')).out.trim()).toBe('yes');
    expect((await kubectl('delete', 'rolebinding', 'frank-pods', '-n', 'team')).err).toBe('');
    expect((await kubectl('auth', 'can-i', 'get', 'pods', '-n', 'team', '--as', 'frank')).out.trim()).toBe('no');
  });
});

describe('RBAC objects through kubectl', () => {
  it('prints bindings with ROLE, and -o wide with USERS GROUPS SERVICEACCOUNTS', async () => {
    const r = await kubectl('get', 'rolebindings', '-n', 'team', '-o', 'wide');
    expect(r.out.split('\n')[0]).toMatch(/^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/);
    expect(r.out).toMatch(/^alice-view\s+ClusterRole\/view\s+\S+\s+alice\s*$/m);
    const roles = await kubectl('get', 'clusterroles', 'kubevirt.io:migrate');
    expect(roles.out).toMatch(/^NAME\s+CREATED AT\nkubevirt\.io:migrate\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
  });

  it('roleRef cannot change', async () => {
    const r = await kubectl('patch', 'rolebinding', 'alice-view', '-n', 'team', '--type=merge', '-p', '{"roleRef":{"name":"edit"}}');
    expect(r.err).toContain('The RoleBinding "alice-view" is invalid: roleRef: Invalid value: ');
    expect(r.err).toContain('cannot change roleRef');
  });

  it('refuses unknown subject kinds and roleRef kinds with kube\'s messages', async () => {
    const path = manifest('bad.yaml', `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bad}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: view}
subjects: [{kind: Robot, name: r2}]
`);
    const r = await kubectl('apply', '-f', path);
    expect(r.err).toContain('roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"');
    expect(r.err).toContain('subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"');
  });

  it('a ClusterRole labelled aggregate-to-view widens view for everyone bound to it', async () => {
    const path = manifest('agg.yaml', `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: leases-view
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, list]}
`);
    const canList = async (user: string) => (await kubectl('auth', 'can-i', 'list', 'leases.coordination.k8s.io', '-n', 'team', '--as', user)).out.trim();
    expect(await canList('alice')).toBe('no');
    expect((await kubectl('apply', '-f', path)).err).toBe('');
    for (let i = 0; i < 50 && (await canList('alice')) !== 'yes'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await canList('alice')).toBe('yes');
    expect(await canList('carol')).toBe('yes');
    expect((await kubectl('delete', 'clusterrole', 'leases-view')).err).toBe('');
    for (let i = 0; i < 50 && (await canList('alice')) !== 'no'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await canList('alice')).toBe('no');
  });
});
