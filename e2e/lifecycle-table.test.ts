/**
 * Every runStrategy × {start, stop, restart, force stop, pause, unpause, migrate} on a running and
 * a stopped VM, through the API server (aggregation → virt-api), with real demo guests: the HTTP
 * code and message KubeVirt gives, and the state the VM settles in. One cluster; rows run
 * concurrently (maxConcurrency in the config bounds the guests booting at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callAction, hasSettled, isRunning, lifecycleTable, prepareVM, type Row } from './support/lifecycle-table';
import { callRest, until } from './support/rest';
import { NS, readState, type VMState } from './support/vm-fixtures';
import type { VirtualMachineInstanceMigration } from '../lib/kubevirt';

const SETTLE_MS = 150_000;
let c: LifecycleCluster;
const timings: string[] = [];

beforeAll(async () => { c = await startLifecycleCluster({ nodes: 2 }); });
afterAll(async () => {
  if (timings.length) process.stderr.write(`lifecycle table: ${timings.length} rows settled; ${timings.join(', ')}\n`);
  await c?.stop();
});

const ROWS = lifecycleTable();
const vmName = (r: Row, shared: boolean) => `${r.strategy.toLowerCase()}-${r.start}-${shared ? 'refused' : r.action.toLowerCase()}`;

/** Failing rows of a group share one VM (they leave it as it was); a succeeding row has its own. */
const prepared = new Map<string, Promise<VMState>>();
function vmFor(r: Row): { name: string; ready: Promise<VMState> } {
  const name = vmName(r, r.code >= 400);
  if (!prepared.has(name)) prepared.set(name, prepareVM(c.admin, name, r.strategy, r.start));
  return { name, ready: prepared.get(name)! };
}

async function migrationsOf(name: string): Promise<VirtualMachineInstanceMigration[]> {
  const list = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations`)).body;
  return (list.items ?? []).filter((m: VirtualMachineInstanceMigration) => m.spec?.vmiName === name);
}

describe('runStrategy × action', () => {
  it.concurrent.each(ROWS.map((r) => [`${r.strategy}, ${r.start} VM: ${r.action} → ${r.code}${r.code < 300 ? `, ${r.settle.printable}` : ''}`, r] as const))('%s', async (_title, row) => {
    const { name, ready } = vmFor(row);
    const before = await ready;
    const t0 = Date.now();
    const reply = await callAction(c.admin, name, row.action);
    expect(reply.status, JSON.stringify(reply.body)).toBe(row.code);
    if (row.message) expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', code: row.code, message: row.message.replace('{name}', name) });
    if (row.action === 'migrate' && row.code === 202) {
      const vmims = await until(`a VMIM for ${name}`, () => migrationsOf(name).then((m) => m.length > 0 && m));
      expect(vmims[0].metadata.name).toMatch(/^kubevirt-migrate-vm-/);
    }
    const settled = await until(`${name} to settle (${JSON.stringify(row.settle)})`, async () => {
      const now = await readState(c.admin, name);
      return hasSettled(row.settle, before, now) && now;
    }, SETTLE_MS);
    if (row.action === 'pause' && row.code === 200) {
      expect(settled.paused).toBe(true);
      const resumed = await callAction(c.admin, name, 'unpause');
      expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
      await until(`${name} unpaused`, async () => { const s = await readState(c.admin, name); return isRunning(s) && !s.paused; }, SETTLE_MS);
    }
    if (row.code < 300) timings.push(`${name} ${Date.now() - t0} ms`);
  });
});
