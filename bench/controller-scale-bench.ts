/**
 * virt-controller throughput at scale: creates N VMs (runStrategy Halted, concurrency 16) in a fresh
 * `kv up` cluster without the console (no virt-api: creates skip admission), then measures
 *   - caught up: time from the first create until every VM shows `status.printableStatus: Stopped`;
 *   - start latency: right after the last create, one VM's runStrategy is patched to Always; time
 *     until its VMI exists and until its status says Starting (or further);
 *   - API calls the cluster received during the run, by verb and resource (the API server's /metrics).
 * Goals: caught up ≤ 10 s, start reflected ≤ 1 s. Prints the figures.
 *
 *   node --import tsx bench/controller-scale-bench.ts [--vms 1000]
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { parseArgs } from 'node:util';
import { KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachine, VirtualMachineInstance } from '../lib/kubevirt';
import { componentCpu, cpuDiff } from './component-cpu';
import { startCluster } from '../e2e/harness';
import { Informer } from '../server/kube/informer';
import type { ApiAccess } from '../server/up/readiness';

const { values } = parseArgs({ options: { vms: { type: 'string', default: '1000' } } });
const COUNT = Number(values.vms);
const PARALLEL = 16;
const VMS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachines';
const VMIS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances';
const STARTED = new Set(['Starting', 'Scheduling', 'Scheduled', 'Running', 'WaitingForVolumeBinding', 'ErrorUnschedulable']);

function call(access: ApiAccess, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ code: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = { authorization: `Bearer ${access.token}` };
    if (data) Object.assign(headers, { 'content-type': contentType, 'content-length': data.length });
    const req = request(new URL(path, access.server), { method, ca: access.ca || undefined, headers }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ code: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

const vmBody = (name: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: 'default' },
  spec: { runStrategy: 'Halted', template: { spec: { domain: { cpu: { cores: 1 }, memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } } },
});
const nameOf = (i: number) => `bench-${String(i).padStart(4, '0')}`;

/** apiserver_request_total by "VERB resource/subresource" (non-watch, non-list requests of the controllers). */
async function requestCounts(access: ApiAccess): Promise<Map<string, number>> {
  const { text } = await call(access, 'GET', '/metrics');
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^apiserver_request_total\{(.*)\} (\d+(?:\.\d+)?)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    const k = `${labels.verb} ${labels.resource}${labels.subresource ? `/${labels.subresource}` : ''} ${labels.code}`;
    counts.set(k, (counts.get(k) ?? 0) + Number(m[2]));
  }
  return counts;
}

function diffCounts(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]).map(([k, v]) => `    ${k}: ${v}`);
}


/** Resolves with the time `pred` first holds, checked after every informer event (bounded). */
function when<T, O extends KubernetesObject>(inf: Informer<O>, pred: () => T | undefined, timeoutMs: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const check = () => { if (pred()) { off(); clearTimeout(timer); resolve(Date.now()); } };
    const off = inf.on({ add: check, update: check, delete: check });
    const timer = setTimeout(() => { off(); reject(new Error(`${what} not seen within ${timeoutMs} ms`)); }, timeoutMs);
    check();
  });
}

async function main(): Promise<void> {
  const cluster = await startCluster({ nodes: 2, console: false, timeoutMs: 180_000 });
  const abort = new AbortController();
  try {
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfig);
    const vms = new Informer<VirtualMachine & KubernetesObject>({ kc, path: VMS });
    const vmis = new Informer<VirtualMachineInstance & KubernetesObject>({ kc, path: VMIS });
    void vms.run(abort.signal);
    void vmis.run(abort.signal);
    await Promise.all([vms.waitForSync(), vmis.waitForSync()]);
    const before = await requestCounts(cluster.access);
    const cpuBefore = componentCpu(cluster.dataDir);
    const target = nameOf(COUNT - 1);
    // the started VM leaves Stopped; caught up = every other VM Stopped
    const stoppedCount = () => vms.list((vm) => vm.metadata.name !== target && vm.status?.printableStatus === 'Stopped').length;
    const caughtUp = when(vms, () => stoppedCount() >= COUNT - 1, 300_000, 'all VMs Stopped');
    const t0 = Date.now();
    for (let i = 0; i < COUNT; i += PARALLEL) {
      const res = await Promise.all(Array.from({ length: Math.min(PARALLEL, COUNT - i) }, (_, j) => call(cluster.access, 'POST', VMS, vmBody(nameOf(i + j)))));
      const bad = res.find((r) => r.code !== 201);
      if (bad) throw new Error(`create failed with HTTP ${bad.code}: ${bad.text}`);
    }
    const createdAt = Date.now();
    const stoppedAtCreateEnd = stoppedCount();
    // the user's action: start the last VM created (a merge patch of runStrategy, as `start` would cause)
    const started = await call(cluster.access, 'PATCH', `${VMS}/${target}`, { spec: { runStrategy: 'Always' } }, 'application/merge-patch+json');
    if (started.code !== 200) throw new Error(`start ${target} answered HTTP ${started.code}: ${started.text}`);
    const vmiSeen = when(vmis, () => vmis.get(`default/${target}`), 120_000, 'VMI');
    const startingSeen = when(vms, () => STARTED.has(vms.get(`default/${target}`)?.status?.printableStatus ?? ''), 120_000, 'VM Starting');
    const [vmiAt, startingAt] = await Promise.all([vmiSeen, startingSeen]);
    const caughtUpAt = await caughtUp.catch(() => NaN);
    const after = await requestCounts(cluster.access);
    const cpuAfter = componentCpu(cluster.dataDir);
    process.stdout.write([
      `controller-scale-bench: ${COUNT} VMs (2 nodes, no console)`,
      `  creates: ${createdAt - t0} ms (${PARALLEL} concurrent); VMs Stopped when the creates ended: ${stoppedAtCreateEnd}`,
      `  all VMs Stopped (controller caught up): ${caughtUpAt - t0} ms after the first create — goal ≤ 10000 ms`,
      `  start (runStrategy Always) right after the creates → VMI created: ${vmiAt - createdAt} ms, VM status Starting: ${startingAt - createdAt} ms — goal ≤ 1000 ms`,
      `  CPU used during the run: ${cpuDiff(cpuBefore, cpuAfter)} (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]} on this machine)`,
      '  API requests during the run (verb resource code: count):',
      ...diffCounts(before, after),
    ].join('\n') + '\n');
  } finally {
    abort.abort();
    await cluster.stop();
  }
}

main().catch((err) => { process.stderr.write(`${err.stack ?? err}\n`); process.exit(1); });
