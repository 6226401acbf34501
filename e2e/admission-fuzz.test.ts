/**
 * Admission under fire, end to end: fast-check mutates demo VM and VMI manifests and POSTs them
 * (dryRun=All, 16 at a time) through the embedded API server, which calls virt-api's mutating and
 * validating webhooks. No answer may be 5xx (or a dropped connection), and both the API server and
 * virt-api must still be the same processes, answering /healthz, afterwards. Prints the p99.
 * 10,000 by default (about 30 s on 2 busy cores); ADMISSION_FUZZ_COUNT and ADMISSION_FUZZ_SEED override.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findProcesses } from '../server/virt-handler/testing/stack-helpers';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest } from './support/rest';
import { sampleMutatedManifests } from './support/spec-mutations';
import { NS } from './support/vm-fixtures';

const COUNT = Number(process.env.ADMISSION_FUZZ_COUNT ?? 10_000);
const CONCURRENCY = 16;
const SEED = Number(process.env.ADMISSION_FUZZ_SEED ?? 20260822);
const PLURAL = { VirtualMachine: 'virtualmachines', VirtualMachineInstance: 'virtualmachineinstances' } as const;
let c: LifecycleCluster;

beforeAll(async () => { c = await startLifecycleCluster({ nodes: 1 }); });
afterAll(async () => { await c?.stop(); });

const apiServerPids = () => findProcesses(['apiserver', '--data-dir', c.cluster.dataDir]);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

it(`${COUNT} mutated VM/VMI manifests through the API server: no 5xx, no crash`, async () => {
  const manifests = sampleMutatedManifests(COUNT, SEED);
  const apiPids = apiServerPids();
  const virtApiPid = c.virtApiPid();
  expect(apiPids).toHaveLength(1);
  const codes = new Map<number, number>();
  const failures: string[] = [];
  const latencies: number[] = [];
  let next = 0;
  const t0 = Date.now();
  const worker = async () => {
    for (let i = next++; i < manifests.length; i = next++) {
      const { kind, body } = manifests[i];
      const start = performance.now();
      const res = await callRest(c.admin, 'POST', `/apis/kubevirt.io/v1/namespaces/${NS}/${PLURAL[kind]}?dryRun=All`, body).catch((err: Error) => ({ status: 0, body: err.message }));
      latencies.push(performance.now() - start);
      codes.set(res.status, (codes.get(res.status) ?? 0) + 1);
      if ((res.status >= 500 || res.status === 0) && failures.length < 5) failures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 300)} for ${JSON.stringify(body).slice(0, 500)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - t0) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const byCode = [...codes.entries()].sort(([a], [b]) => a - b).map(([k, v]) => `${k}×${v}`).join(' ');
  process.stderr.write(`admission fuzz: ${COUNT} POSTs (seed ${SEED}, ${CONCURRENCY} concurrent) in ${seconds.toFixed(1)} s; codes ${byCode}; ` +
    `admission round trip p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms` +
    '\n');

  expect(failures).toEqual([]);
  expect([...codes.keys()].filter((code) => code >= 500 || code === 0)).toEqual([]);
  expect(codes.get(201) ?? 0, 'some manifests are still valid').toBeGreaterThan(0);
  expect([...codes.keys()].some((code) => code >= 400 && code < 500), 'some are refused').toBe(true);
  expect(apiServerPids()).toEqual(apiPids);
  expect(c.virtApiPid()).toBe(virtApiPid);
  expect((await callRest(c.admin, 'GET', '/healthz')).status).toBe(200);
  expect((await callRest(c.virtApi, 'GET', '/healthz')).status).toBe(200);
});
