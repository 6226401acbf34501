import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CpusetV1 } from './cpuset-cgroups';

/** A cpuset v1 hierarchy as plain files: the kernel would create the control files of a new dir empty. */
describe('CpusetV1 (files standing in for the cpuset hierarchy)', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cpuset-'));
    writeFileSync(join(root, 'cpuset.cpus'), '0-3\n');
    writeFileSync(join(root, 'cpuset.mems'), '0\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const read = (...p: string[]) => readFileSync(join(root, ...p), 'utf8').trim();

  it('seeds every new level from its parent, then gives the Pod its CPUs and processes', () => {
    const c = new CpusetV1(root, join(root, 'kubevirt-ts', 'node-1-abcd'));
    c.place('u1', [4242], '2');
    expect(read('kubevirt-ts', 'cpuset.cpus')).toBe('0-3');
    expect(read('kubevirt-ts', 'node-1-abcd', 'cpuset.mems')).toBe('0');
    expect(read('kubevirt-ts', 'node-1-abcd', 'podu1', 'cpuset.cpus')).toBe('2');
    expect(read('kubevirt-ts', 'node-1-abcd', 'podu1', 'cgroup.procs')).toBe('4242');
    expect(c.list()).toEqual(['u1']);
  });

  it('keeps a level\'s own cpus once set (a second Pod does not reseed the node)', () => {
    const c = new CpusetV1(root, join(root, 'kubevirt-ts', 'n'));
    c.place('a', [], '1');
    writeFileSync(join(root, 'kubevirt-ts', 'n', 'cpuset.cpus'), '0-2');
    c.place('b', [], '0,2');
    expect(read('kubevirt-ts', 'n', 'cpuset.cpus')).toBe('0-2');
    expect(read('kubevirt-ts', 'n', 'podb', 'cpuset.cpus')).toBe('0,2');
  });

  it('removeNode leaves a non-empty node dir alone', () => {
    const c = new CpusetV1(root, join(root, 'kubevirt-ts', 'n'));
    mkdirSync(join(root, 'kubevirt-ts', 'n', 'podx'), { recursive: true });
    expect(c.removeNode()).toBe(false);
    expect(existsSync(join(root, 'kubevirt-ts', 'n'))).toBe(true);
  });
});
