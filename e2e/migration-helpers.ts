/**
 * Helpers for the live-migration tests on a whole `kv up` cluster: demo guests running the
 * in-memory `counter`, migrations and their outcome, serial output through the node's handler.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { dataPaths } from '../server/data-dir';
import { makeKubeClients, type KubeClients } from '../server/kube/clients';
import { makeKubeConfig } from '../server/kube/kubeconfig';
import { handlerAccess, isAlive, openStream } from '../server/virt-handler/testing/stack-helpers';
import type { TestCluster } from './harness';
import { Annotation } from '../lib/kubevirt/labels';

export { isAlive };
export const NS = 'default';
export const DEMO_CMDLINE = 'console=tty0 console=ttyS0,115200 quiet panic=-1 demo.counter';
const POLL_MS = 100;

export function clientsOf(cluster: TestCluster): KubeClients {
  return makeKubeClients(makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca }));
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export function counterVMI(name: string, labels: Record<string, string> = {}, memory = '128Mi') {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS, labels },
    spec: {
      terminationGracePeriodSeconds: 0,
      evictionStrategy: 'LiveMigrate',
      domain: { memory: { guest: memory }, firmware: { kernelBoot: { kernelArgs: DEMO_CMDLINE } }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
      volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
    },
  };
}

export const getVMI = (k: KubeClients, name: string): Promise<any> => k.vmis.get(NS, name).catch(() => undefined);
export const getVMIM = (k: KubeClients, name: string): Promise<any> => k.migrations.get(NS, name).catch(() => undefined);

export async function startGuest(k: KubeClients, name: string, labels: Record<string, string> = {}, memory?: string): Promise<any> {
  await k.vmis.create(NS, counterVMI(name, labels, memory) as any);
  return until(`${name} Running`, async () => { const v = await getVMI(k, name); return v?.status?.phase === 'Running' && v; }, 120_000);
}

export async function migrate(k: KubeClients, vmiName: string): Promise<string> {
  const m: any = await k.migrations.create(NS, { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration', metadata: { generateName: `mig-${vmiName}-`, namespace: NS }, spec: { vmiName } } as any);
  return m.metadata.name;
}

export async function finalMigration(k: KubeClients, name: string, timeoutMs = 120_000): Promise<any> {
  return until(`migration ${name} final`, async () => { const m = await getVMIM(k, name); return ['Succeeded', 'Failed'].includes(m?.status?.phase) && m; }, timeoutMs);
}

export function podDir(cluster: TestCluster, node: string, podUID: string): string {
  return join(dataPaths(cluster.dataDir).node(node), 'pods', podUID);
}

/** The QEMU pid of the VMI's launcher on `node` (from activePods), if it runs. */
export function qemuPidOn(cluster: TestCluster, vmi: any, node: string): number | undefined {
  const uid = Object.entries(vmi?.status?.activePods ?? {}).find(([, n]) => n === node)?.[0];
  const file = uid ? join(podDir(cluster, node, uid), 'qemu.pid') : undefined;
  const pid = file && existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : undefined;
  return pid && isAlive(pid) ? pid : undefined;
}

/** Collects the guest's `counter N` lines from its serial console on its current node. */
export class CounterReader {
  values: number[] = [];
  private ws?: WebSocket;
  private buf = '';

  static async open(cluster: TestCluster, k: KubeClients, name: string): Promise<CounterReader> {
    const r = new CounterReader();
    const vmi = await getVMI(k, name);
    const node = await k.core.readNode({ name: vmi.status.nodeName });
    const h = handlerAccess(cluster.dataDir, vmi.status.nodeName, node.metadata!.annotations![Annotation.HandlerEndpoint]);
    r.ws = await openStream(h, NS, name, 'console');
    r.ws.on('message', (d: Buffer) => r.take(d.toString('latin1')));
    return r;
  }

  private take(s: string): void {
    this.buf += s;
    const lines = this.buf.split('\n');
    this.buf = lines.pop() ?? '';
    for (const l of lines) {
      const m = /counter (\d+)/.exec(l);
      if (m) this.values.push(Number(m[1]));
    }
  }

  get last(): number | undefined { return this.values[this.values.length - 1]; }

  /** Waits until the counter has passed `n`. */
  async past(n: number, timeoutMs = 60_000): Promise<number> {
    return until(`counter past ${n}`, () => (this.last !== undefined && this.last > n ? this.last : undefined), timeoutMs);
  }

  close(): void { this.ws?.close(); }
}

export async function createSlowPolicy(k: KubeClients, name: string, label: Record<string, string>, bandwidth = '1Mi'): Promise<void> {
  await k.custom.createClusterCustomObject({
    group: 'migrations.kubevirt.io', version: 'v1alpha1', plural: 'migrationpolicies',
    body: { apiVersion: 'migrations.kubevirt.io/v1alpha1', kind: 'MigrationPolicy', metadata: { name }, spec: { selectors: { virtualMachineInstanceSelector: label }, bandwidthPerMigration: bandwidth } },
  });
}
