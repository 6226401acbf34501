/**
 * `kv up` (console on) runs virt-api and the console in one supervised `kv control-plane virt-api
 * ... --and console ...` process, apart from the controllers' one (docs/performance.md,
 * "Footprint"). Both must answer from it; a kill -9 must be followed by a restart in which both
 * answer again; SIGTERM must end it promptly (not by the supervisor's SIGKILL after its 15 s
 * grace) and kv up must start it again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../../e2e/harness';
import { findProcesses, isAlive } from '../virt-handler/testing/stack-helpers';
import { apiGet, httpStatus } from './readiness';
import { until } from '../kube/testing/wait-for';

let cluster: TestCluster;

const dd = () => ['--data-dir', cluster.dataDir];
const userFacingPids = () => findProcesses(['control-plane', 'virt-api', 'console', ...dd()]).filter(isAlive);
/** virt-api answers through the API server's aggregation, and the console serves its sign-in page */
async function bothAnswer(): Promise<boolean> {
  const subresources = await apiGet(cluster.access, '/apis/subresources.kubevirt.io/v1');
  return subresources.status === 200 && (await httpStatus(`${cluster.consoleUrl}/login`, 30_000)) === 200; // the first page loads Next
}

beforeAll(async () => {
  process.env.KV_POD_NETWORK = '0'; // host-wide tables and DNS address: this test needs neither
  cluster = await startCluster({ nodes: 1, console: true, timeoutMs: 180_000 });
}, 200_000);
afterAll(async () => {
  await cluster?.stop();
  delete process.env.KV_POD_NETWORK;
}, 90_000);

describe('kv up: virt-api and the console in one process', () => {
  it('serves both from one process, which is not the controllers\' one', async () => {
    const [shared, ...more] = userFacingPids();
    expect(shared).toBeDefined();
    expect(more).toEqual([]);
    expect(findProcesses(['virt-api', ...dd()])).toEqual([shared]);
    expect(findProcesses(['console', ...dd()])).toEqual([shared]);
    const controllers = findProcesses(['control-plane', 'scheduler', ...dd()]);
    expect(controllers).toHaveLength(1);
    expect(controllers).not.toContain(shared);
    expect(await bothAnswer()).toBe(true);
    // the process writes its own log file (kv up hands it the file, no pipe through itself): Next's
    // start-up line, printed once the page above loaded it (pino's lines are at warn level in tests)
    expect(readFileSync(join(cluster.dataDir, 'logs', 'virt-api-console.log'), 'utf8')).toMatch(/Running next\.config\.mjs/);
  });

  it('after kill -9 it is restarted and both answer again', async () => {
    const [pid] = userFacingPids();
    process.kill(pid, 'SIGKILL');
    await until('the virt-api + console process restarted', async () => { const p = userFacingPids(); return p.length === 1 && p[0] !== pid; }, 30_000);
    await until('the console up', async () => (await httpStatus(`${cluster.consoleUrl}/healthz`)) === 200, 90_000);
    // Next.js is loaded by the first page request: several at once all get the page
    expect(await Promise.all(Array.from({ length: 4 }, () => httpStatus(`${cluster.consoleUrl}/login`, 30_000)))).toEqual([200, 200, 200, 200]);
    await until('virt-api and the console answering', bothAnswer, 90_000);
  }, 150_000);

  it('SIGTERM ends it promptly (both components stop and return) and kv up starts it again', async () => {
    const [pid] = userFacingPids();
    const sent = Date.now();
    process.kill(pid, 'SIGTERM');
    await until('the process gone', async () => !isAlive(pid), 20_000);
    expect(Date.now() - sent).toBeLessThan(10_000); // a component that did not return on the stop signal would keep it alive
    await until('the virt-api + console process restarted', async () => { const p = userFacingPids(); return p.length === 1 && p[0] !== pid; }, 30_000);
    await until('virt-api and the console answering', bothAnswer, 90_000);
  }, 150_000);
});
