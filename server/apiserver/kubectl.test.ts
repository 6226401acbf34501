import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlWithToken, type Kubectl } from '../../e2e/support/kubectl';
import { startTestServer, waitFor, type TestServer } from './testing/test-server';

let t: TestServer;
let k: Kubectl;
const kubectl = (...args: string[]) => k.run(...args);
const manifest = (name: string, text: string) => k.file(name, text);

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm1\n  labels: {app: demo}\ndata:\n  a: "1"\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod1\nspec:\n  containers:\n  - name: c\n    image: busybox\n';
const VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm1
spec:
  runStrategy: Halted
  template:
    spec:
      domain:
        devices: {}
        resources:
          requests: {memory: 64Mi}
`;

beforeAll(async () => {
  t = await startTestServer();
  k = kubectlWithToken(t.srv, t.srv.adminToken);
});
afterAll(async () => {
  await t?.close();
  k?.dispose();
});

describe('kubectl 1.32 against the embedded API server', () => {
  it.each([
    ['ConfigMap', 'cm.yaml', CM, 'configmap/cm1'],
    ['Pod', 'pod.yaml', POD, 'pod/pod1'],
    ['VirtualMachine', 'vm.yaml', VM, 'virtualmachine.kubevirt.io/vm1'],
  ])('apply -f creates, re-applies and server-side applies a %s', async (_kind, file, text, ref) => {
    const path = manifest(file, text);
    expect(await kubectl('apply', '-f', path)).toMatchObject({ code: 0, out: `${ref} created\n` });
    expect(await kubectl('apply', '-f', path)).toMatchObject({ code: 0, out: `${ref} unchanged\n` });
    expect(await kubectl('apply', '--server-side', '-f', path)).toMatchObject({ code: 0, out: `${ref} serverside-applied\n` });
  });

  it.each([
    [['get', 'pods'], /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\npod1\s+0\/1\s+Pending\s+0\s+/],
    [['get', 'vm'], /^NAME\s+AGE\s+STATUS\s+READY\nvm1\s+/],
    [['get', 'vm', 'vm1', '-o', 'yaml'], /kind: VirtualMachine[\s\S]*runStrategy: Halted/],
    [['get', 'cm', '-l', 'app=demo', '-o', 'name'], /^configmap\/cm1\n$/],
    [['describe', 'pod', 'pod1'], /Name:\s+pod1[\s\S]*Status:\s+Pending/],
    [['api-resources'], /virtualmachines\s+vm,vms\s+kubevirt.io\/v1\s+true\s+VirtualMachine/],
    [['explain', 'vm.spec.runStrategy'], /FIELD: runStrategy <string>/],
  ])('%j', async (args, expected) => {
    const r = await kubectl(...args);
    expect(r.err).toBe('');
    expect(r.out).toMatch(expected);
  });

  it.each([
    ['merge', ['cm', 'cm1', '--type', 'merge', '-p', '{"data":{"b":"2"}}'], '{.data.b}', '2'],
    ['json', ['cm', 'cm1', '--type', 'json', '-p', '[{"op":"replace","path":"/data/a","value":"9"}]'], '{.data.a}', '9'],
    ['strategic', ['pod', 'pod1', '-p', '{"metadata":{"labels":{"s":"t"}}}'], '{.metadata.labels.s}', 't'],
    ['merge on a VM', ['vm', 'vm1', '--type', 'merge', '-p', '{"spec":{"runStrategy":"Always"}}'], '{.spec.runStrategy}', 'Always'],
  ])('patch --type %s', async (_n, args, path, value) => {
    expect((await kubectl('patch', ...args)).code).toBe(0);
    expect((await kubectl('get', args[0], args[1], '-o', `jsonpath=${path}`)).out).toBe(value);
  });

  it('get -w prints the list, then changes', async () => {
    const w = k.start('get', 'cm', '-w', '--no-headers');
    let out = '';
    w.stdout.on('data', (d) => { out += d; });
    try {
      await waitFor(() => out.includes('cm1'), 10_000, 'initial list');
      expect((await kubectl('apply', '-f', manifest('w.yaml', CM.replace('cm1', 'watched')))).code).toBe(0);
      await waitFor(() => out.includes('watched'), 10_000, 'watch event');
    } finally {
      w.kill();
    }
  });

  it.each([
    ['bad YAML', 'apply', 'bad.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\n data: x\n', [], /error converting YAML to JSON/],
    ['unknown field under strict validation', 'apply', 'unknown.yaml', VM.replace('name: vm1', 'name: vm2').replace('runStrategy: Halted', 'runStrategy: Halted\n  bogus: 1'), ['--validate=strict'], /strict decoding error: unknown field "spec.bogus"/],
    ['missing required field', 'apply', 'noreq.yaml', 'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: vm3\nspec:\n  runStrategy: Halted\n', [], /is invalid: spec.template: Required value/],
  ])('reports %s like kube', async (_n, verb, file, text, flags, expected) => {
    const r = await kubectl(verb, ...flags, '-f', manifest(file, text));
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(expected);
  });

  it('replace with a stale resourceVersion is a Conflict', async () => {
    const stale = (await kubectl('get', 'cm', 'cm1', '-o', 'yaml')).out;
    expect((await kubectl('patch', 'cm', 'cm1', '--type', 'merge', '-p', '{"data":{"c":"3"}}')).code).toBe(0);
    const r = await kubectl('replace', '-f', manifest('stale.yaml', stale));
    expect(r.err).toMatch(/Error from server \(Conflict\).*Operation cannot be fulfilled on configmaps "cm1": the object has been modified/);
  });

  it('creates typed objects sent as protobuf (create namespace|configmap|secret)', async () => {
    expect((await kubectl('create', 'namespace', 'typed')).code).toBe(0);
    expect((await kubectl('create', 'configmap', 'tc', '-n', 'typed', '--from-literal=a=b')).code).toBe(0);
    expect((await kubectl('create', 'secret', 'generic', 'ts', '-n', 'typed', '--from-literal=k=v')).code).toBe(0);
    expect((await kubectl('get', 'cm', 'tc', '-n', 'typed', '-o', 'jsonpath={.data.a}')).out).toBe('b');
    expect((await kubectl('get', 'secret', 'ts', '-n', 'typed', '-o', 'jsonpath={.type} {.data.k}')).out).toBe('Opaque dg==');
  });

  it.each([['pod', 'pod1'], ['vm', 'vm1'], ['cm', 'cm1']])('delete %s', async (kind, name) => {
    expect(await kubectl('delete', kind, name)).toMatchObject({ code: 0 });
    expect((await kubectl('get', kind, name)).err).toMatch(/NotFound/);
  });
});
