import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CpuManager } from './cpu-manager';

const guaranteed = (uid: string, cpu: string): V1Pod => ({
  metadata: { uid },
  spec: { containers: [{ name: 'compute', resources: { limits: { cpu, memory: '1Gi' } } }] },
});
const burstable = (uid: string): V1Pod => ({ metadata: { uid }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }] } });

describe('CpuManager (state file shared by the nodes of a host)', () => {
  let dir = '';
  let stateFile = '';
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'cpuman-')); stateFile = join(dir, 'cpu_manager_state'); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const manager = (nodeName: string) => new CpuManager({ nodeName, stateFile, cpus: [0, 1, 2, 3] });

  it('two nodes of one host never hand out the same CPU; other Pods get the shared pool', () => {
    expect(manager('node-1').assign(guaranteed('a', '1'))).toEqual({ cpus: [1], exclusive: true });
    expect(manager('node-2').assign(guaranteed('b', '2'))).toEqual({ cpus: [2, 3], exclusive: true });
    expect(manager('node-1').assign(burstable('c'))).toEqual({ cpus: [0], exclusive: false });
    expect(manager('node-2').assign(guaranteed('d', '1'))).toEqual({ error: 'Not enough cpus available to satisfy request: requested=1, available=0' });
  });

  it('with nothing exclusive, Pods are not restricted at all', () => {
    expect(manager('node-1').assign(burstable('c'))).toEqual({ cpus: [], exclusive: false });
  });

  it('a restarted kubelet (a new manager on the same file) keeps the Pod\'s CPUs, kube\'s file shape', () => {
    manager('node-1').assign(guaranteed('a', '2'));
    const again = manager('node-1');
    expect(again.holds('a')).toBe(true);
    expect(again.assign(guaranteed('a', '2'))).toEqual({ cpus: [1, 2], exclusive: true });
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual({ policyName: 'static', reservedCpuSet: '0', entries: { 'node-1/a': '1-2' } });
  });

  it('release and removeStale give CPUs back; removeStale leaves other nodes\' Pods alone', () => {
    manager('node-1').assign(guaranteed('a', '1'));
    manager('node-1').assign(guaranteed('gone', '1'));
    manager('node-2').assign(guaranteed('b', '1'));
    manager('node-1').removeStale(new Set(['a']));
    expect(manager('node-1').holds('gone')).toBe(false);
    expect(manager('node-2').holds('b')).toBe(true);
    manager('node-1').release('a');
    expect(manager('node-1').sharedPool()).toEqual([0, 1, 2]);
  });
});
