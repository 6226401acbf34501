import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePod } from '../testing-builders';
import { log } from '../../log';
import { CgroupV1 } from './cgroup-v1';
import { isStillJoining, PodIsolation } from './pod-isolation';
import { CgroupV2 } from './cgroup-v2';
import { detectLayout, nodeCgroupName, podCgroupsFor } from './detect-cgroups';
import { cfsQuotaUs, milliCpuToShares, podCpuRequestMillis, podLimits, renderV1Limits, renderV2Limits, sharesToWeight } from './pod-limits';

const withLimits = (limits: Record<string, string>) => (p: ReturnType<typeof makePod>) => void (p.spec!.containers[0].resources = { limits });

describe('pod limits', () => {
  it('sums container limits plus overhead; one unlimited container leaves the pod unlimited', () => {
    expect(podLimits(makePod('a', withLimits({ cpu: '500m', memory: '64Mi' })))).toEqual({ cpuMillis: 500, memoryBytes: 64 * 2 ** 20, cpuShares: 512 });
    const withOverhead = makePod('b', withLimits({ memory: '1Gi' }), (p) => void (p.spec!.overhead = { memory: '100Mi' }));
    expect(podLimits(withOverhead)).toEqual({ cpuMillis: undefined, memoryBytes: 1124 * 2 ** 20, cpuShares: 2 });
    const two = makePod('c', withLimits({ memory: '1Gi' }), (p) => void p.spec!.containers.push({ name: 'd', image: 'x' }));
    expect(podLimits(two).memoryBytes).toBeUndefined();
  });

  it('weighs a Pod by the CPU it requests, as kubelet sizes cpu.shares (1024 per CPU, 2 for none)', () => {
    const requests = (cpu: string, limit?: string) => (p: ReturnType<typeof makePod>) => void (p.spec!.containers[0].resources = { requests: { cpu }, ...(limit ? { limits: { cpu: limit } } : {}) });
    expect(podCpuRequestMillis(makePod('r', requests('100m', '2')))).toBe(100);
    expect(podCpuRequestMillis(makePod('l', withLimits({ cpu: '1500m' })))).toBe(1500); // a limit alone is the request
    const twoAndInit = makePod('i', requests('250m'), (p) => {
      p.spec!.containers.push({ name: 'b', image: 'x', resources: { requests: { cpu: '250m' } } });
      p.spec!.initContainers = [{ name: 'init', image: 'x', resources: { requests: { cpu: '2' } } }];
      p.spec!.overhead = { cpu: '100m' };
    });
    expect(podCpuRequestMillis(twoAndInit)).toBe(2100); // the init container's 2 CPUs are more than 2 × 250m, plus the overhead
    expect(podLimits(makePod('r', requests('100m'))).cpuShares).toBe(102);
    expect(podLimits(makePod('none')).cpuShares).toBe(2);
    expect([0, 1, 999, 1000, 2000, 10_000_000].map(milliCpuToShares)).toEqual([2, 2, 1022, 1024, 2048, 262_144]);
    // cgroup v2: kube's conversion of shares to cpu.weight
    expect([2, 1024, 2048, 262_144].map(sharesToWeight)).toEqual([1, 39, 79, 10_000]);
    expect(renderV1Limits({ cpuShares: 512 }).cpu['cpu.shares']).toBe('512');
    expect(renderV2Limits({ cpuShares: 1024 })['cpu.weight']).toBe('39');
  });

  it('renders CFS quota like kubelet (100ms period, 1ms floor) and memory limits for v1 and v2', () => {
    expect(cfsQuotaUs(250)).toBe(25_000);
    expect(cfsQuotaUs(2)).toBe(1_000);
    expect(cfsQuotaUs(undefined)).toBeUndefined();
    expect(renderV1Limits({ cpuMillis: 1500, memoryBytes: 1024 })).toEqual({
      cpu: { 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '150000' },
      memory: { 'memory.limit_in_bytes': '1024' },
    });
    expect(renderV1Limits({}).cpu['cpu.cfs_quota_us']).toBe('-1');
    expect(renderV1Limits({}).memory['memory.limit_in_bytes']).toBe('-1');
    expect(renderV2Limits({ cpuMillis: 100, memoryBytes: 4096 })).toEqual({ 'cpu.max': '10000 100000', 'memory.max': '4096' });
    expect(renderV2Limits({})).toEqual({ 'cpu.max': 'max 100000', 'memory.max': 'max' });
  });
});

describe('layout detection', () => {
  const V1_MOUNTS = [
    'tmpfs /sys/fs/cgroup tmpfs rw 0 0',
    'cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0',
    'cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0',
    'cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0',
  ].join('\n');
  const V1_SELF = '4:memory:/process_api/abc\n1:cpu:/\n0::/\n';

  it('uses v1 controllers on a hybrid host, under this process own cgroup per controller', () => {
    expect(detectLayout(V1_MOUNTS, V1_SELF, () => '')).toEqual({ version: 'v1', v1: { cpu: '/sys/fs/cgroup/cpu', memory: '/sys/fs/cgroup/memory/process_api/abc' } });
  });

  it('reads comounted cpu,cpuacct hierarchies', () => {
    const mounts = 'cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\ncgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0';
    expect(detectLayout(mounts, '3:cpu,cpuacct:/a\n2:memory:/a\n', () => '')?.v1?.cpu).toBe('/sys/fs/cgroup/cpu,cpuacct/a');
  });

  it('uses v2 when only the unified hierarchy exists and offers cpu and memory', () => {
    const mounts = 'cgroup2 /sys/fs/cgroup cgroup2 rw 0 0';
    expect(detectLayout(mounts, '0::/user.slice/kv\n', () => 'cpuset cpu io memory pids')).toEqual({ version: 'v2', v2: '/sys/fs/cgroup/user.slice/kv' });
    expect(detectLayout(mounts, '0::/\n', () => 'pids')).toBeUndefined();
  });

  it('names the node cgroup per node and data dir', () => {
    expect(nodeCgroupName('node01', '/a')).toMatch(/^kubevirt-ts\/node01-[0-9a-f]{8}$/);
    expect(nodeCgroupName('node01', '/a')).not.toBe(nodeCgroupName('node01', '/b'));
  });
});

describe('drivers on a fake cgroup root', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const read = (...p: string[]) => readFileSync(join(root, ...p), 'utf8');

  it('v1 writes quota, period and memory limit per controller, joins pids, reads oom kills, lists and removes', () => {
    root = mkdtempSync(join(tmpdir(), 'cg1-'));
    const cg = podCgroupsFor({ version: 'v1', v1: { cpu: join(root, 'cpu'), memory: join(root, 'memory', 'me') } }, 'n1', '/data');
    expect(cg).toBeInstanceOf(CgroupV1);
    cg.ensure('u-1', { cpuMillis: 500, memoryBytes: 64 * 2 ** 20 });
    const node = nodeCgroupName('n1', '/data');
    expect(read('cpu', node, 'podu-1', 'cpu.cfs_quota_us')).toBe('50000');
    expect(read('cpu', node, 'podu-1', 'cpu.cfs_period_us')).toBe('100000');
    expect(read('memory', 'me', node, 'podu-1', 'memory.limit_in_bytes')).toBe(String(64 * 2 ** 20));
    cg.addProcess('u-1', 4242);
    expect(read('memory', 'me', node, 'podu-1', 'cgroup.procs')).toBe('4242');
    writeFileSync(join(root, 'memory', 'me', node, 'podu-1', 'memory.oom_control'), 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n');
    expect(cg.oomKills('u-1')).toBe(2);
    expect(cg.list()).toEqual(['u-1']);
  });

  it('v1 weighs the node group by its allocatable CPU and the kubevirt-ts group above all nodes by the machine', () => {
    root = mkdtempSync(join(tmpdir(), 'cg1-'));
    const cg = podCgroupsFor({ version: 'v1', v1: { cpu: join(root, 'cpu'), memory: join(root, 'memory') } }, 'n1', '/data');
    cg.setNodeLimits({ memoryBytes: 1 << 30, cpuShares: 1024 }, { cpuShares: 2048 });
    const node = nodeCgroupName('n1', '/data');
    expect(read('cpu', node, 'cpu.shares')).toBe('1024');
    expect(read('cpu', 'kubevirt-ts', 'cpu.shares')).toBe('2048');
    expect(read('memory', node, 'memory.limit_in_bytes')).toBe(String(1 << 30));
    cg.ensure('u-3', { cpuShares: 102 });
    expect(read('cpu', node, 'podu-3', 'cpu.shares')).toBe('102');
  });

  it('v2 writes the same weights as cpu.weight', () => {
    root = mkdtempSync(join(tmpdir(), 'cg2-'));
    const cg = podCgroupsFor({ version: 'v2', v2: root }, 'n1', '/data');
    cg.setNodeLimits({ cpuShares: 1024 }, { cpuShares: 2048 });
    cg.ensure('u-4', { cpuShares: 2 });
    const node = nodeCgroupName('n1', '/data');
    expect(read(node, 'cpu.weight')).toBe('39');
    expect(read('kubevirt-ts', 'cpu.weight')).toBe('79');
    expect(read(node, 'podu-4', 'cpu.weight')).toBe('1');
  });

  it('v2 enables cpu and memory down to the node dir and writes cpu.max and memory.max', () => {
    root = mkdtempSync(join(tmpdir(), 'cg2-'));
    mkdirSync(join(root, 'svc'), { recursive: true });
    writeFileSync(join(root, 'svc', 'cgroup.subtree_control'), 'pids');
    const cg = podCgroupsFor({ version: 'v2', v2: join(root, 'svc') }, 'n1', '/data');
    expect(cg).toBeInstanceOf(CgroupV2);
    cg.ensure('u-2', { cpuMillis: 2000, memoryBytes: 1 << 30 });
    const node = nodeCgroupName('n1', '/data');
    expect(read('svc', 'cgroup.subtree_control')).toBe('+cpu +memory');
    expect(read('svc', node, 'cgroup.subtree_control')).toBe('+cpu +memory');
    expect(read('svc', node, 'podu-2', 'cpu.max')).toBe('200000 100000');
    expect(read('svc', node, 'podu-2', 'memory.max')).toBe(String(1 << 30));
    writeFileSync(join(root, 'svc', node, 'podu-2', 'memory.events'), 'low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n');
    expect(cg.oomKills('u-2')).toBe(1);
    cg.addProcess('u-2', 77);
    expect(cg.pids('u-2')).toEqual([77]);
    expect(cg.list()).toEqual(['u-2']);
  });
});

describe('layout pinned in the node dir', () => {
  it('keeps the first layout while its dirs exist; detects again once they are gone', async () => {
    const { pinLayout } = await import('./layout-pin');
    const nodeDir = mkdtempSync(join(tmpdir(), 'pin-'));
    const parent = mkdtempSync(join(tmpdir(), 'cgparent-'));
    try {
      const first = { version: 'v2' as const, v2: parent };
      expect(pinLayout(nodeDir, () => first)).toEqual(first);
      expect(pinLayout(nodeDir, () => ({ version: 'v2', v2: '/elsewhere' }))).toEqual(first); // a kubelet restarted in another cgroup
      rmSync(parent, { recursive: true });
      expect(pinLayout(nodeDir, () => ({ version: 'v2', v2: '/elsewhere' }))).toEqual({ version: 'v2', v2: '/elsewhere' });
    } finally {
      rmSync(nodeDir, { recursive: true, force: true });
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('a container joins its Pod cgroup before its command runs', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const run = (file: string, args: string[]) => new Promise<{ code: number | null; out: string; pid: number }>((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out, pid: child.pid! }));
  });

  it('writes its own pid to every cgroup.procs, then execs the command with its arguments untouched', async () => {
    root = mkdtempSync(join(tmpdir(), 'cg-join-'));
    const cg = podCgroupsFor({ version: 'v1', v1: { cpu: join(root, 'cpu'), memory: join(root, 'memory') } }, 'n1', '/data');
    cg.ensure('u-5', {});
    const isolation = new PodIsolation(cg, log);
    // the command prints its own pid: the same process that joined (exec keeps the pid)
    const wrapped = isolation.joiningCommand('u-5', '/bin/sh', ['-c', 'echo "$$|$0|$1"', '$HOME; x', "it's"]);
    const { code, out, pid } = await run(wrapped.file, wrapped.args);
    expect(code).toBe(0);
    expect(out).toBe(`${pid}|$HOME; x|it's\n`);
    expect(cg.procsFiles('u-5').map((f) => readFileSync(f, 'utf8').trim())).toEqual([String(pid), String(pid)]);
  });

  it('is told apart from its command until it has joined and exec\'d (the kubelet neither reports it Running nor signals it before)', async () => {
    root = mkdtempSync(join(tmpdir(), 'cg-join-'));
    const cg = podCgroupsFor({ version: 'v2', v2: join(root, 'v2') }, 'n1', '/data');
    cg.ensure('u-7', {});
    const [procs] = cg.procsFiles('u-7');
    rmSync(procs!, { force: true });
    expect(spawnSync('mkfifo', [procs!]).status).toBe(0); // the wrapper's write blocks until we read
    const wrapped = new PodIsolation(cg, log).joiningCommand('u-7', '/bin/sleep', ['30']);
    const child = spawn(wrapped.file, wrapped.args, { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(isStillJoining(child.pid!)).toBe(true);
      expect(readFileSync(procs!, 'utf8').trim()).toBe(String(child.pid)); // lets the write finish
      const deadline = Date.now() + 5000;
      while (isStillJoining(child.pid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(isStillJoining(child.pid!)).toBe(false);
      const argv = () => readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').slice(0, 2);
      while (argv()[0] === '' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5)); // empty for a moment while it execs
      expect(argv()).toEqual(['/bin/sleep', '30']);
    } finally {
      child.kill('SIGKILL');
    }
    expect(isStillJoining(999_999_999)).toBe(false); // gone: nothing to wait for
  });

  it('ends with 126 before the command runs when it cannot join', async () => {
    root = mkdtempSync(join(tmpdir(), 'cg-join-'));
    const cg = podCgroupsFor({ version: 'v2', v2: join(root, 'missing') }, 'n1', '/data'); // no Pod cgroup dir: the write fails
    const wrapped = new PodIsolation(cg, log).joiningCommand('u-6', '/bin/echo', ['ran']);
    const { code, out } = await run(wrapped.file, wrapped.args);
    expect(code).toBe(126);
    expect(out).toBe('');
  });
});
