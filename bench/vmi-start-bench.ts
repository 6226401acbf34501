/**
 * VMI start latency on a whole embedded cluster (`kv up`, 2 nodes, real QEMU under TCG, demo image):
 * creates N VMIs at R per second and prints p50/p95 of create → phase Running and create → the
 * guest's login prompt on the serial console (read through virt-handler). For reference it also
 * times one raw QEMU boot of the same image to its login prompt, without any of our machinery.
 * Usage: node --import tsx bench/vmi-start-bench.ts [count=20] [perSecond=10] [memory=128Mi]
 */
import { spawn } from 'node:child_process';
import { Watch } from '@kubernetes/client-node';
import { startCluster } from '../e2e/harness';
import { dataPaths } from '../server/data-dir';
import { resolveImage } from '../server/images/image-store';
import { makeKubeClients } from '../server/kube/clients';
import { makeKubeConfig } from '../server/kube/kubeconfig';
import { ANNOTATION_HANDLER_ENDPOINT } from '../server/virt-handler/constants';
import { handlerAccess, openStream, waitForSerial } from '../server/virt-handler/testing/stack-helpers';

const COUNT = Number(process.argv[2] ?? 20);
const RATE = Number(process.argv[3] ?? 10);
const MEMORY = process.argv[4] ?? '128Mi';
const NS = 'default';
const TIMEOUT_MS = 300_000;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const line = (label: string, xs: number[]) => console.log(`${label.padEnd(26)} n=${xs.length}  p50 ${pct(xs, 0.5)?.toFixed(0)} ms  p95 ${pct(xs, 0.95)?.toFixed(0)} ms  max ${Math.max(...xs).toFixed(0)} ms`);

/** One QEMU boot of the demo image straight to its login prompt (the floor for create → login). */
function rawBootMs(imagesDir: string): Promise<number> {
  const img = resolveImage(imagesDir, 'demo');
  if (!img?.kernel || !img.initrd) throw new Error('demo image not in the store');
  const t0 = performance.now();
  const qemu = spawn('qemu-system-x86_64', ['-accel', 'tcg', '-m', MEMORY.replace(/i$/, ''), '-nographic', '-no-reboot', '-kernel', img.kernel, '-initrd', img.initrd, '-append', img.cmdline ?? 'console=ttyS0'], { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { qemu.kill('SIGKILL'); reject(new Error('raw boot timed out')); }, 60_000);
    const poke = setInterval(() => qemu.stdin.write('\r'), 300);
    qemu.stdout.on('data', (d) => {
      out += d;
      if (out.includes('login:')) { clearTimeout(timer); clearInterval(poke); qemu.kill('SIGKILL'); resolve(performance.now() - t0); }
    });
  });
}

async function main(): Promise<void> {
  const cluster = await startCluster({ nodes: 2, console: false, timeoutMs: 180_000 });
  try {
    const kc = makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca });
    const k = makeKubeClients(kc);
    const created = new Map<string, number>();
    const running = new Map<string, number>();
    const login = new Map<string, number>();
    const logins: Promise<void>[] = [];
    const watchLogin = async (name: string, node: string) => {
      const n = await k.core.readNode({ name: node });
      const h = handlerAccess(cluster.dataDir, node, n.metadata!.annotations![ANNOTATION_HANDLER_ENDPOINT]);
      const ws = await openStream(h, NS, name, 'console');
      await waitForSerial(ws, 'login:', TIMEOUT_MS);
      login.set(name, performance.now() - created.get(name)!);
      ws.close();
    };
    const watch = await new Watch(kc).watch(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`, {}, (_type, vmi: any) => {
      const name = vmi.metadata.name;
      if (vmi.status?.phase === 'Running' && created.has(name) && !running.has(name)) {
        running.set(name, performance.now() - created.get(name)!);
        logins.push(watchLogin(name, vmi.status.nodeName).catch((err) => console.error(`${name}: ${err.message}`)));
      }
    }, () => undefined);
    for (let i = 0; i < COUNT; i++) {
      const name = `bench-${i}`;
      created.set(name, performance.now());
      await k.vmis.create(NS, {
        apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
        spec: { terminationGracePeriodSeconds: 0, domain: { memory: { guest: MEMORY }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] },
      } as any);
      await new Promise((r) => setTimeout(r, 1000 / RATE));
    }
    const deadline = Date.now() + TIMEOUT_MS;
    while ((running.size < COUNT || logins.length < COUNT) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await Promise.all(logins);
    watch.abort();
    console.log(`VMI start, ${COUNT} VMIs created at ${RATE}/s, guest ${MEMORY}, 2 nodes, TCG`);
    line('create → Running', [...running.values()]);
    line('create → login prompt', [...login.values()]);
    const raw = await rawBootMs(dataPaths(cluster.dataDir).images);
    console.log(`${'raw QEMU boot → login'.padEnd(26)} ${raw.toFixed(0)} ms (one guest, idle machine)`);
  } finally {
    await cluster.stop();
  }
}

await main();
