import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { podDirOf } from './pod-dir';
import { staleDirNames, sweepPodDirs } from './pod-dir-sweep';

const LIVE = '11111111-2222-4333-8444-555555555555';
const GONE = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

describe('staleDirNames', () => {
  it('names the UID dirs no live Pod has, and nothing that is not a Pod UID', () => {
    expect(staleDirNames([LIVE, GONE, 'notes', '.tmp', 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE'], new Set([LIVE]))).toEqual([GONE]);
    expect(staleDirNames([LIVE], new Set([LIVE]))).toEqual([]);
  });
});

describe('sweepPodDirs (a node dir on disk)', () => {
  let dir = '';
  afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('removes the dir of a launcher Pod that is gone with everything in it, keeps a live Pod\'s and other nodes\'', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-sweep-'));
    for (const [node, uid] of [['node-1', LIVE], ['node-1', GONE], ['node-2', GONE]]) {
      mkdirSync(podDirOf(dir, node, uid), { recursive: true });
      writeFileSync(join(podDirOf(dir, node, uid), 'termination.json'), '{}');
    }
    const removed = await sweepPodDirs({ dataDir: dir, node: 'node-1', listPodUIDs: async () => new Set([LIVE]) });
    expect(removed).toEqual([GONE]);
    expect(existsSync(podDirOf(dir, 'node-1', GONE))).toBe(false);
    expect(existsSync(join(podDirOf(dir, 'node-1', LIVE), 'termination.json'))).toBe(true);
    expect(existsSync(podDirOf(dir, 'node-2', GONE))).toBe(true);
  });

  it('reads the dir before it lists the Pods, and removes nothing when the list fails', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-sweep-'));
    mkdirSync(podDirOf(dir, 'node-1', LIVE), { recursive: true });
    // a Pod whose dir appears while the list is in flight is not in the names read before it
    const late = '99999999-2222-4333-8444-555555555555';
    const removed = await sweepPodDirs({ dataDir: dir, node: 'node-1', listPodUIDs: async () => { mkdirSync(podDirOf(dir, 'node-1', late)); return new Set([LIVE]); } });
    expect(removed).toEqual([]);
    expect(existsSync(podDirOf(dir, 'node-1', late))).toBe(true);
    await expect(sweepPodDirs({ dataDir: dir, node: 'node-1', listPodUIDs: () => Promise.reject(new Error('forbidden')) })).rejects.toThrow('forbidden');
    expect(existsSync(podDirOf(dir, 'node-1', LIVE))).toBe(true);
  });

  it('does nothing on a node where no launcher ran yet', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-sweep-'));
    let listed = false;
    expect(await sweepPodDirs({ dataDir: dir, node: 'node-1', listPodUIDs: async () => { listed = true; return new Set(); } })).toEqual([]);
    expect(listed).toBe(false);
  });
});
