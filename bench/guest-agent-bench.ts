/**
 * The guest agent as a user meets it (`kv up`, 1 node, real QEMU under TCG, the demo guest): for N
 * VMIs started one after another, how long after the login prompt AgentConnected is set, and the
 * round trip of `guestosinfo` (the subresource `virtctl guestosinfo` calls: API server → virt-api →
 * virt-handler → launcher → qemu-ga), median of M calls per guest.
 * Usage: node --import tsx bench/guest-agent-bench.ts [guests=3] [calls=20]
 */
import { startCluster } from '../e2e/harness';
import { makeKubeClients } from '../server/kube/clients';
import { makeKubeConfig } from '../server/kube/kubeconfig';
import { getJson } from '../server/kube/raw-request';
import { Annotation } from '../lib/kubevirt/labels';
import { handlerAccess, openStream } from '../server/virt-handler/testing/stack-helpers';
import type { VirtualMachineInstance } from '../lib/kubevirt';

const GUESTS = Number(process.argv[2] ?? 3);
const CALLS = Number(process.argv[3] ?? 20);
const NS = 'default';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(50);
  }
}

async function main(): Promise<void> {
  const cluster = await startCluster({ nodes: 1, console: false, timeoutMs: 180_000 });
  try {
    const kc = makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca });
    const k = makeKubeClients(kc);
    const afterLogin: number[] = [];
    const afterRunning: number[] = [];
    const roundTrips: number[] = [];
    for (let i = 0; i < GUESTS; i++) {
      const name = `agent-${i}`;
      await k.vmis.create(NS, {
        apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
        spec: { terminationGracePeriodSeconds: 0, domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] },
      } as never);
      const get = async () => (await k.vmis.get(NS, name)) as unknown as VirtualMachineInstance | undefined;
      const running = await until('Running', async () => { const v = await get(); return v?.status?.phase === 'Running' && v; });
      const runningAt = performance.now();
      const node = await k.core.readNode({ name: running.status!.nodeName! });
      const ws = await openStream(handlerAccess(cluster.dataDir, node.metadata!.name!, node.metadata!.annotations![Annotation.HandlerEndpoint]), NS, name, 'console');
      let out = '';
      let loginAt = 0;
      ws.on('message', (d: Buffer) => { out = (out + d.toString('latin1')).slice(-64); if (!loginAt && out.includes('login:')) loginAt = performance.now(); });
      const poke = setInterval(() => ws.send(Buffer.from('\r')), 300);
      await until('AgentConnected', async () => (await get())?.status?.conditions?.some((c) => c.type === 'AgentConnected' && c.status === 'True'));
      const agentAt = performance.now();
      await until('login prompt', async () => loginAt > 0);
      clearInterval(poke);
      ws.close();
      afterRunning.push(agentAt - runningAt);
      afterLogin.push(agentAt - loginAt);
      const path = `/apis/subresources.kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${name}/guestosinfo`;
      const calls: number[] = [];
      for (let c = 0; c < CALLS; c++) {
        const t = performance.now();
        await getJson(kc, path);
        calls.push(performance.now() - t);
      }
      roundTrips.push(median(calls));
      await k.vmis.delete(NS, name);
    }
    console.log(`guest agent, ${GUESTS} demo guests one after another, 1 node, TCG`);
    console.log(`AgentConnected after Running:       median ${median(afterRunning).toFixed(0)} ms  (${afterRunning.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`AgentConnected after login prompt:  median ${median(afterLogin).toFixed(0)} ms  (${afterLogin.map((x) => x.toFixed(0)).join(', ')}; negative = before the prompt)`);
    console.log(`guestosinfo round trip:             median ${median(roundTrips).toFixed(1)} ms  (median of ${CALLS} calls per guest: ${roundTrips.map((x) => x.toFixed(1)).join(', ')})`);
  } finally {
    await cluster.stop();
  }
}

await main();
