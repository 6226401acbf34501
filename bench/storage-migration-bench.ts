/**
 * Live migration with a `shared` disk: the same demo guest migrated with and without a 1 GiB
 * claim on the `shared` class (512 MiB of it written by the test before the VM starts), VMIM
 * created → Succeeded, on a 2-node `kv up`. The shared disk stays where it is, so the two should
 * be the same within 10 %. Usage: node --import tsx bench/storage-migration-bench.ts [runs=3]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startCluster } from '../e2e/harness';
import { clientsOf, counterVMI, finalMigration, getVMI, migrate, NS, until } from '../e2e/migration-helpers';

const RUNS = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = (s: string) => process.stdout.write(`${s}\n`);

async function main(): Promise<void> {
  const cluster = await startCluster({ nodes: 2, console: false, timeoutMs: 180_000 });
  try {
    const k = clientsOf(cluster);
    // the claim, bound at once (shared is Immediate), half written before the guest starts
    await k.core.createNamespacedPersistentVolumeClaim({ namespace: NS, body: { metadata: { name: 'bench-disk' }, spec: { accessModes: ['ReadWriteMany'], storageClassName: 'shared', resources: { requests: { storage: '1Gi' } } } } });
    const pvc = await until('claim bound', async () => { const c = await k.core.readNamespacedPersistentVolumeClaim({ namespace: NS, name: 'bench-disk' }); return c.status?.phase === 'Bound' && c; }, 60_000);
    const pv = await k.core.readPersistentVolume({ name: pvc.spec!.volumeName! });
    const img = join(pv.spec!.hostPath!.path, 'disk.img');
    execFileSync('dd', ['if=/dev/urandom', `of=${img}`, 'bs=1M', 'count=512', 'status=none']);
    execFileSync('truncate', ['-s', '1G', img]);
    const plain = counterVMI('plain');
    const withDisk = counterVMI('withdisk') as ReturnType<typeof counterVMI> & { spec: { domain: { devices: { disks: object[] } }; volumes: object[] } };
    withDisk.spec.domain.devices.disks.push({ name: 'data', disk: { bus: 'virtio' } });
    withDisk.spec.volumes.push({ name: 'data', persistentVolumeClaim: { claimName: 'bench-disk' } });
    for (const vmi of [plain, withDisk]) await k.vmis.create(NS, vmi as never);
    for (const name of ['plain', 'withdisk']) await until(`${name} Running`, async () => (await getVMI(k, name))?.status?.phase === 'Running', 180_000);
    const figures: Record<string, number[]> = { plain: [], withdisk: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const name of ['plain', 'withdisk']) {
        const t = Date.now();
        const m = await finalMigration(k, await migrate(k, name), 180_000);
        if (m.status.phase !== 'Succeeded') throw new Error(`${name}: migration ${m.status.phase}`);
        figures[name].push(Date.now() - t);
        await until(`${name} settled`, async () => { const v = await getVMI(k, name); return v?.status?.migrationState?.completed && !Object.keys(v.status.activePods ?? {}).slice(1).length; }, 60_000).catch(() => undefined);
      }
    }
    const a = median(figures.plain);
    const b = median(figures.withdisk);
    out(`migration VMIM → Succeeded, median of ${RUNS}: without a disk ${a} ms (${figures.plain.join(', ')}); with a 1 GiB shared disk (512 MiB written) ${b} ms (${figures.withdisk.join(', ')}) → ${((100 * (b - a)) / a).toFixed(0)} %`);
  } finally {
    await cluster.stop();
  }
}

await main();
