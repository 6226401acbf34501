/**
 * The user's view with the real kubectl: apply a demo VM (Always) → Running; `kubectl delete vmi`
 * → a new VMI Running; patch to Halted → VMI gone, Stopped; a VM whose guest cannot boot →
 * CrashLoopBackOff with growing delays. Then start/stop/restart through the API server
 * (aggregation) and directly on virt-api answer the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callAction, isRunning } from './support/lifecycle-table';
import { callRest, until, type Endpoint } from './support/rest';
import { createVM, demoVM, readState, readVM } from './support/vm-fixtures';

/** Crash-loop delays of 1·n² s (+ jitter ≤ 50 %) instead of 10·n² s, for this cluster only. */
const BACKOFF_INTERVAL_SECONDS = 1;
const WAIT_MS = 150_000;
let c: LifecycleCluster;
let kubectl: Kubectl;

beforeAll(async () => {
  process.env.KV_VM_START_BACKOFF_INTERVAL_SECONDS = String(BACKOFF_INTERVAL_SECONDS); // inherited by `kv up` → virt-controller
  c = await startLifecycleCluster({ nodes: 1 });
  kubectl = makeKubectl(c.cluster.kubeconfig);
});
afterAll(async () => {
  kubectl?.dispose();
  await c?.stop();
});

const DEMO_VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: demo
spec:
  runStrategy: Always
  template:
    spec:
      terminationGracePeriodSeconds: 0
      domain:
        memory: {guest: 128Mi}
        devices:
          disks: [{name: root, disk: {bus: virtio}}]
      volumes: [{name: root, containerDisk: {image: demo}}]
`;

/** Boots the demo image's initrd as if it were a kernel: QEMU refuses it at once, the VMI fails before Running. */
const UNBOOTABLE_VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: broken
spec:
  runStrategy: Always
  template:
    spec:
      terminationGracePeriodSeconds: 0
      domain:
        memory: {guest: 128Mi}
        firmware:
          kernelBoot:
            container: {image: demo, kernelPath: /initrd.gz}
        devices:
          disks: [{name: root, disk: {bus: virtio}}]
      volumes: [{name: root, containerDisk: {image: demo}}]
`;

async function ok(args: string[]): Promise<string> {
  const r = await kubectl.run(...args);
  expect(r.code, `kubectl ${args.join(' ')}: ${r.err}`).toBe(0);
  return r.out;
}

describe('kubectl', () => {
  it('apply → Running; delete vmi → a new VMI Running; patch Halted → VMI gone, Stopped', async () => {
    expect(await ok(['apply', '-f', kubectl.file('demo.yaml', DEMO_VM)])).toBe('virtualmachine.kubevirt.io/demo created\n');
    const first = await until('demo Running', async () => { const s = await readState(c.admin, 'demo'); return isRunning(s) && s; }, WAIT_MS);
    expect(await ok(['get', 'vm', 'demo'])).toMatch(/^NAME\s+AGE\s+STATUS\s+READY\ndemo\s+\S+\s+Running\s+True\n$/);
    expect(await ok(['get', 'vmi', 'demo', '-o', 'jsonpath={.status.phase}'])).toBe('Running');

    expect(await ok(['delete', 'vmi', 'demo'])).toBe('virtualmachineinstance.kubevirt.io "demo" deleted\n');
    const second = await until('a new demo VMI Running', async () => { const s = await readState(c.admin, 'demo'); return isRunning(s) && s.vmiUID !== first.vmiUID && s; }, WAIT_MS);
    expect(second.vmiUID).not.toBe(first.vmiUID);
    // the guest's boot, from its first byte, is the launcher Pod's guest-console-log container log
    const launcher = await ok(['get', 'pods', '-l', `kubevirt.io/created-by=${second.vmiUID}`, '-o', 'jsonpath={.items[0].metadata.name}']);
    const bootLog = await until('the guest console log shows the login prompt', async () => {
      const r = await kubectl.run('logs', launcher, '-c', 'guest-console-log');
      return r.code === 0 && r.out.includes('login:') && r.out;
    }, 60_000);
    expect(bootLog.indexOf('login:')).toBeGreaterThan(0);
    expect(await ok(['logs', launcher, '-c', 'guest-console-log', '--tail=1'])).toContain('login:');

    expect(await ok(['patch', 'vm', 'demo', '--type', 'merge', '-p', '{"spec":{"runStrategy":"Halted"}}'])).toBe('virtualmachine.kubevirt.io/demo patched\n');
    await until('demo Stopped, VMI gone', async () => { const s = await readState(c.admin, 'demo'); return s.printable === 'Stopped' && !s.vmiUID; }, WAIT_MS);
    expect(await ok(['get', 'vm', 'demo', '-o', 'jsonpath={.status.printableStatus}'])).toBe('Stopped');
    const none = await kubectl.run('get', 'vmi', 'demo');
    expect(none.err).toContain('virtualmachineinstances.kubevirt.io "demo" not found');
  });

  it('a guest that cannot boot goes into CrashLoopBackOff with growing delays', async () => {
    await ok(['apply', '-f', kubectl.file('broken.yaml', UNBOOTABLE_VM)]);
    // count → [first seen at, retryAfterTimestamp]
    const seen = new Map<number, { at: number; retryAfter: number }>();
    const printables = new Set<string>();
    await until('3 start failures', async () => {
      const vm = await readVM(c.admin, 'broken');
      if (vm?.status?.printableStatus) printables.add(vm.status.printableStatus);
      const f = vm?.status?.startFailure;
      if (f && !seen.has(f.consecutiveFailCount)) seen.set(f.consecutiveFailCount, { at: Date.now(), retryAfter: Date.parse(f.retryAfterTimestamp) });
      return seen.has(3) && printables.has('CrashLoopBackOff');
    }, WAIT_MS);
    await ok(['patch', 'vm', 'broken', '--type', 'merge', '-p', '{"spec":{"runStrategy":"Halted"}}']);
    const delays = [1, 2, 3].map((n) => (seen.get(n)!.retryAfter - seen.get(n)!.at) / 1000);
    process.stderr.write(`crash loop: consecutiveFailCount 1..3 seen, retry delays ≈ ${delays.map((d) => d.toFixed(1)).join(' s, ')} s (interval ${BACKOFF_INTERVAL_SECONDS} s·n²)\n`);
    expect([...seen.keys()].slice(0, 3)).toEqual([1, 2, 3]);
    expect(delays[1]).toBeGreaterThan(delays[0]);
    expect(delays[2]).toBeGreaterThan(delays[1]);
    expect(printables).toContain('CrashLoopBackOff');
    expect(printables).not.toContain('Running');
  });
});

describe.each([
  ['through the API server (aggregation)', 'aggregated'],
  ['directly on virt-api', 'direct'],
] as const)('start/stop/restart %s', (_title, path) => {
  const ep = (): Endpoint => (path === 'direct' ? c.virtApi : c.admin);
  it('start 202 → Running; start 409; restart 202 → new VMI; stop 202 → Stopped; stop 409', async () => {
    const name = `paths-${path}`;
    await createVM(c.admin, demoVM(name, { runStrategy: 'Manual' }));
    expect((await callAction(ep(), name, 'start')).status).toBe(202);
    const first = await until(`${name} Running`, async () => { const s = await readState(c.admin, name); return isRunning(s) && s; }, WAIT_MS);
    expect((await callAction(ep(), name, 'start')).body).toMatchObject({ code: 409, message: `Operation cannot be fulfilled on virtualmachine.kubevirt.io "${name}": VM is already running` });
    expect((await callAction(ep(), name, 'restart')).status).toBe(202);
    await until(`${name} restarted`, async () => { const s = await readState(c.admin, name); return isRunning(s) && s.vmiUID !== first.vmiUID; }, WAIT_MS);
    expect((await callAction(ep(), name, 'stop')).status).toBe(202);
    await until(`${name} Stopped`, async () => { const s = await readState(c.admin, name); return s.printable === 'Stopped' && !s.vmiUID && s.pendingRequests === 0; }, WAIT_MS);
    expect((await callAction(ep(), name, 'stop')).body).toMatchObject({ code: 409, message: `Operation cannot be fulfilled on virtualmachine.kubevirt.io "${name}": VM is not running` });
  });

  it('refuses the view-only user (403) and a caller without credentials (401)', async () => {
    const denied = await callAction({ ...ep(), token: c.viewer.token }, 'paths-anyone', 'start');
    expect(denied.status).toBe(403);
    // through the API server it is the API server's own denial (kube's wording), directly it is virt-api's
    const named = path === 'direct' ? 'virtualmachine.kubevirt.io' : 'virtualmachines.subresources.kubevirt.io';
    expect(denied.body.message).toMatch(new RegExp(`^${named} "paths-anyone" is forbidden: User "viewer" cannot update resource "virtualmachines/start" in API group "subresources.kubevirt.io" in the namespace "default"$`));
    const anonymous = await callRest({ ...ep(), token: 'not-a-token' }, 'PUT', '/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/paths-anyone/start', {});
    expect(anonymous.status).toBe(401);
  });
});
