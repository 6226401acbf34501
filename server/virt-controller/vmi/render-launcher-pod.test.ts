import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { renderLauncherPod } from './render-launcher-pod';
import { memoryOverheadBytes } from './launcher-pod-resources';
import { MIB, parseQuantity } from '../../../lib/kubevirt/quantity';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';

const dir = join(import.meta.dirname, 'testdata');
const cases = readdirSync(dir).filter((f) => f.endsWith('.input.yaml')).map((f) => f.replace('.input.yaml', ''));

describe('renderLauncherPod golden', () => {
  it.each(cases)('%s', (name) => {
    const vmi = parse(readFileSync(join(dir, `${name}.input.yaml`), 'utf8')) as VirtualMachineInstance;
    const got = stringify(renderLauncherPod(vmi));
    const outFile = join(dir, `${name}.output.yaml`);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(outFile, got);
    expect(existsSync(outFile), `${outFile} missing: run with UPDATE_GOLDEN=1`).toBe(true);
    expect(got).toBe(readFileSync(outFile, 'utf8'));
  });
});

const vmi = (spec: Record<string, unknown>): VirtualMachineInstance => ({ metadata: { name: 'v', namespace: 'ns', uid: 'u' }, spec: { ...spec, domain: { devices: {}, ...(spec.domain as object) } } as VirtualMachineInstance['spec'] });

describe('launcher pod sizing', () => {
  it.each([
    ['128Mi guest, 1 vCPU, VGA', vmi({ domain: { memory: { guest: '128Mi' } } }), 128 * MIB + 256 * 1024 + 150 * MIB],
    ['1Gi guest, 4 vCPUs, VGA', vmi({ domain: { memory: { guest: '1Gi' }, cpu: { cores: 4 } } }), 1024 * MIB + 2 * MIB + 174 * MIB],
    ['no graphics', vmi({ domain: { memory: { guest: '1Gi' }, devices: { autoattachGraphicsDevice: false } } }), 1024 * MIB + 2 * MIB + 118 * MIB],
  ])('%s → memory request', (_name, v, bytes) => {
    expect(parseQuantity(renderLauncherPod(v).spec!.containers[0].resources!.requests!.memory)).toBe(bytes);
  });

  it('puts guest RAM under hugepages-2Mi (requests = limits) and keeps only the overhead as memory', () => {
    const v = vmi({ domain: { memory: { guest: '1Gi', hugepages: { pageSize: '2Mi' } } } });
    const res = renderLauncherPod(v).spec!.containers[0].resources!;
    expect(res.requests!['hugepages-2Mi']).toBe('1Gi');
    expect(res.limits!['hugepages-2Mi']).toBe('1Gi');
    expect(parseQuantity(res.requests!.memory)).toBe(memoryOverheadBytes(v));
  });

  it('dedicated CPUs: whole CPUs, one more with isolateEmulatorThread, and only on cpumanager=true nodes', () => {
    const plain = renderLauncherPod(vmi({ domain: { cpu: { cores: 2, dedicatedCpuPlacement: true } } })).spec!;
    expect(plain.containers[0].resources!.limits!.cpu).toBe('2');
    expect(plain.nodeSelector).toMatchObject({ cpumanager: 'true' });
    const isolated = renderLauncherPod(vmi({ domain: { cpu: { cores: 2, dedicatedCpuPlacement: true, isolateEmulatorThread: true } } })).spec!;
    expect(isolated.containers[0].resources!.requests!.cpu).toBe('3');
    expect(isolated.containers[0].resources!.limits!.cpu).toBe('3');
    expect(renderLauncherPod(vmi({})).spec!.nodeSelector!.cpumanager).toBeUndefined();
  });

  it('adds more overhead for every vCPU', () => {
    const one = memoryOverheadBytes(vmi({ domain: { cpu: { cores: 1 } } }));
    const eight = memoryOverheadBytes(vmi({ domain: { cpu: { cores: 8 } } }));
    expect(eight - one).toBe(7 * 8 * MIB);
  });

  it.each([
    [1, '100m'], [4, '400m'], [16, '1600m'],
  ])('%i vCPUs → cpu request %s', (cores, cpu) => {
    expect(renderLauncherPod(vmi({ domain: { cpu: { cores } } })).spec!.containers[0].resources!.requests!.cpu).toBe(cpu);
  });

  it.each([
    [100, 1, '10m'], [1, 2, '2'], [20, 4, '200m'], [0, 1, '100m'], [-5, 1, '100m'], [2.5, 1, '100m'],
  ])('the KubeVirt CR\'s cpuAllocationRatio %s: %i vCPUs → cpu request %s (anything but a positive integer keeps 10)', (ratio, cores, cpu) => {
    const pod = renderLauncherPod(vmi({ domain: { cpu: { cores } } }), { cpuAllocationRatio: () => ratio });
    expect(pod.spec!.containers[0].resources!.requests!.cpu).toBe(cpu);
  });

  it('puts the overhead on the memory limit too, so the Pod cgroup leaves the guest its full limit', () => {
    const v = vmi({ domain: { resources: { requests: { memory: '512Mi' }, limits: { memory: '1Gi' } } } });
    const res = renderLauncherPod(v).spec!.containers[0].resources!;
    const overhead = memoryOverheadBytes(v);
    expect(parseQuantity(res.limits!.memory)).toBe(1024 * MIB + overhead);
    expect(parseQuantity(res.requests!.memory)).toBe(512 * MIB + overhead);
  });

  it('the KubeVirt CR\'s additionalGuestMemoryOverheadRatio multiplies the overhead (whole kB), on request and limit, never the guest', () => {
    const v = vmi({ domain: { memory: { guest: '1Gi' }, resources: { limits: { memory: '1Gi' } } } });
    const overhead = memoryOverheadBytes(v);
    const res = renderLauncherPod(v, { overheadRatio: () => 1.5 }).spec!.containers[0].resources!;
    const grown = overhead + Math.floor(Math.ceil(overhead / 1000) * 0.5) * 1000;
    expect(memoryOverheadBytes(v, 1.5)).toBe(grown);
    expect(parseQuantity(res.requests!.memory)).toBe(1024 * MIB + grown);
    expect(parseQuantity(res.limits!.memory)).toBe(1024 * MIB + grown);
    // unset (or 1): the overhead as computed
    expect(parseQuantity(renderLauncherPod(v, { overheadRatio: () => undefined }).spec!.containers[0].resources!.requests!.memory)).toBe(1024 * MIB + overhead);
    expect(memoryOverheadBytes(v, 1)).toBe(overhead);
  });

  it('the KubeVirt CR\'s memoryOvercommit scales the guest part of a request the VMI did not give (KubeVirt\'s WithMemoryRequests), never the overhead', () => {
    const v = vmi({ domain: { memory: { guest: '96Mi' } } });
    const overhead = memoryOverheadBytes(v);
    const request = (o?: number) => parseQuantity(renderLauncherPod(v, { memoryOvercommit: () => o }).spec!.containers[0].resources!.requests!.memory);
    expect(request(150)).toBe(64 * MIB + overhead);
    expect(request(200)).toBe(48 * MIB + overhead);
    expect(request(333)).toBe(Math.floor((96 * MIB * 100) / 333) + overhead); // bytes floored, as KubeVirt's integer division
    // unset, 100, or invalid (KubeVirt refuses ≤ 0 and keeps the default): the guest as it is
    for (const o of [undefined, 100, 0, -150]) expect(request(o)).toBe(96 * MIB + overhead);
    // a request the VMI gives, or a limit standing in for it, is not scaled
    const asked = vmi({ domain: { memory: { guest: '96Mi' }, resources: { requests: { memory: '80Mi' } } } });
    expect(parseQuantity(renderLauncherPod(asked, { memoryOvercommit: () => 200 }).spec!.containers[0].resources!.requests!.memory)).toBe(80 * MIB + overhead);
    const limited = vmi({ domain: { memory: { guest: '96Mi' }, resources: { limits: { memory: '128Mi' } } } });
    expect(parseQuantity(renderLauncherPod(limited, { memoryOvercommit: () => 200 }).spec!.containers[0].resources!.requests!.memory)).toBe(128 * MIB + overhead);
  });

  it('overcommitGuestOverhead: no overhead on the request, whatever the ratio', () => {
    const v = vmi({ domain: { memory: { guest: '1Gi' }, resources: { overcommitGuestOverhead: true } } });
    expect(renderLauncherPod(v, { overheadRatio: () => 3 }).spec!.containers[0].resources!.requests!.memory).toBe('1Gi');
  });

  it('overcommitGuestOverhead keeps the overhead on the memory limit (KubeVirt overcommits the request only)', () => {
    const v = vmi({ domain: { memory: { guest: '1Gi' }, resources: { overcommitGuestOverhead: true, requests: { memory: '1Gi' }, limits: { memory: '2Gi' } } } });
    const pod = renderLauncherPod(v, { overheadRatio: () => 2 });
    const res = pod.spec!.containers[0].resources!;
    expect(res.requests!.memory).toBe('1Gi');
    expect(parseQuantity(res.limits!.memory)).toBe(2048 * MIB + memoryOverheadBytes(v, 2));
    expect(pod.metadata!.annotations!['kubevirt.io/memory-overhead-bytes']).toBe(String(memoryOverheadBytes(v, 2)));
  });

  it('dedicated CPUs: 100Mi more overhead (before the ratio), on request and limit alike', () => {
    const shared = vmi({ domain: { memory: { guest: '512Mi' }, cpu: { cores: 2 } } });
    const pinned = vmi({ domain: { memory: { guest: '512Mi' }, cpu: { cores: 2, dedicatedCpuPlacement: true } } });
    expect(memoryOverheadBytes(pinned) - memoryOverheadBytes(shared)).toBe(100 * MIB);
    const res = renderLauncherPod(pinned, { overheadRatio: () => 2 }).spec!.containers[0].resources!;
    const overhead = memoryOverheadBytes(pinned, 2);
    // doubled with the rest (the ratio rounds to whole kB)
    expect(Math.abs(overhead - memoryOverheadBytes(shared, 2) - 200 * MIB)).toBeLessThan(1000);
    expect(parseQuantity(res.requests!.memory)).toBe(512 * MIB + overhead);
    expect(res.limits!.memory).toBe(res.requests!.memory);
  });

  it('dedicated CPUs with overcommitGuestOverhead: the request without overhead, the limit with it (as KubeVirt)', () => {
    const v = vmi({ domain: { memory: { guest: '512Mi' }, cpu: { cores: 1, dedicatedCpuPlacement: true }, resources: { overcommitGuestOverhead: true } } });
    const res = renderLauncherPod(v).spec!.containers[0].resources!;
    expect(res.requests!.memory).toBe('512Mi');
    expect(parseQuantity(res.limits!.memory)).toBe(512 * MIB + memoryOverheadBytes(v));
  });

  it.each([
    ['cpu and memory requests = limits', 100, { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '1', memory: '256Mi' } }],
    ['same values in other units', 100, { requests: { cpu: '1000m', memory: '256Mi' }, limits: { cpu: 1, memory: '268435456' } }],
    ['memory only', 0, { requests: { memory: '256Mi' }, limits: { memory: '256Mi' } }],
    ['cpu limit above request', 0, { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '2', memory: '256Mi' } }],
  ])('Guaranteed QoS asked for? (%s) → %iMi more overhead', (_name, extra, resources) => {
    const base = memoryOverheadBytes(vmi({ domain: { memory: { guest: '256Mi' } } }));
    expect(memoryOverheadBytes(vmi({ domain: { memory: { guest: '256Mi' }, resources } })) - base).toBe(extra * MIB);
  });

  it('hugepages with a memory limit: the limit keeps only what exceeds memory.guest, plus the overhead', () => {
    const v = vmi({ domain: { memory: { guest: '1Gi', hugepages: { pageSize: '2Mi' } }, resources: { requests: { memory: '1Gi' }, limits: { memory: '1200Mi' } } } });
    const res = renderLauncherPod(v).spec!.containers[0].resources!;
    expect(parseQuantity(res.limits!.memory)).toBe(176 * MIB + memoryOverheadBytes(v));
    expect(parseQuantity(res.requests!.memory)).toBe(memoryOverheadBytes(v));
  });

  it('requests the emptyDisks total as ephemeral-storage (none without emptyDisks)', () => {
    const v = vmi({ volumes: [{ name: 'a', emptyDisk: { capacity: '2Gi' } }, { name: 'b', emptyDisk: { capacity: '512Mi' } }, { name: 'c', containerDisk: { image: 'x' } }] });
    expect(renderLauncherPod(v).spec!.containers[0].resources!.requests!['ephemeral-storage']).toBe('2560Mi');
    expect(renderLauncherPod(vmi({})).spec!.containers[0].resources!.requests!['ephemeral-storage']).toBeUndefined();
  });

  it.each([[undefined, 45], [0, 15], [300, 315]])('grace %s → pod grace %i', (grace, want) => {
    expect(renderLauncherPod(vmi({ terminationGracePeriodSeconds: grace })).spec!.terminationGracePeriodSeconds).toBe(want);
  });
});
