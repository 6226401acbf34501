import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultHugepageBytes, findHugetlbfs, HugetlbfsResolver } from './hugetlbfs';

const MOUNTS = [
  'proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0',
  'hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0',
  'none /mnt/huge\\0401g hugetlbfs rw,relatime,pagesize=1024M 0 0',
].join('\n');
const TWO_MI = 2 * 2 ** 20;

describe('findHugetlbfs', () => {
  it.each([
    ['2Mi', '/dev/hugepages'],
    ['1Gi', '/mnt/huge 1g'],
    ['4Mi', undefined],
  ])('finds the mount with %s pages', (size, path) => {
    expect(findHugetlbfs(MOUNTS, size, TWO_MI)).toBe(path);
  });

  it('takes a mount without pagesize= as the kernel default size', () => {
    const mounts = 'hugetlbfs /dev/hugepages hugetlbfs rw,relatime 0 0';
    expect(findHugetlbfs(mounts, '2Mi', TWO_MI)).toBe('/dev/hugepages');
    expect(findHugetlbfs(mounts, '1Gi', TWO_MI)).toBeUndefined();
    expect(findHugetlbfs(mounts, '1Gi', 2 ** 30)).toBe('/dev/hugepages');
  });

  it('ignores other filesystems', () => {
    expect(findHugetlbfs('tmpfs /dev/hugepages tmpfs rw 0 0', '2Mi', TWO_MI)).toBeUndefined();
  });

  it('reads the default size from meminfo', () => {
    expect(defaultHugepageBytes('MemTotal: 1 kB\nHugepagesize:    1048576 kB\n')).toBe(2 ** 30);
    expect(defaultHugepageBytes('')).toBe(TWO_MI);
  });
});

describe('HugetlbfsResolver', () => {
  let dir = '';
  afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('uses the host mount when there is one and mounts nothing', () => {
    const r = new HugetlbfsResolver('/nowhere', true, MOUNTS);
    expect(r.resolve('2Mi')).toBe('/dev/hugepages');
    expect(r.toMount).toEqual([]);
  });

  it('plans a mount in the pod dir where the host has none and QEMU may mount', () => {
    dir = mkdtempSync(join(tmpdir(), 'huge-'));
    const r = new HugetlbfsResolver(dir, true, 'proc /proc proc rw 0 0');
    expect(r.resolve('1Gi')).toBe(join(dir, 'hugepages-1Gi'));
    expect(r.resolve('1Gi')).toBe(join(dir, 'hugepages-1Gi'));
    expect(r.toMount).toEqual([{ path: join(dir, 'hugepages-1Gi'), pageSizeOption: '1G' }]);
    expect(statSync(join(dir, 'hugepages-1Gi')).isDirectory()).toBe(true);
  });

  it('has none without a host mount when QEMU cannot mount', () => {
    expect(new HugetlbfsResolver('/nowhere', false, '').resolve('2Mi')).toBeUndefined();
  });
});
