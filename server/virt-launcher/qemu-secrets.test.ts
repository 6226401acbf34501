import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { secretPaths } from './qemu-secrets';
import { writeVolumeAtomically } from '../node/volume-writer';

describe('what QEMU may not read', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('covers every Pod\'s token and Secret volumes, but not claim links or emptyDirs', () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-secrets-'));
    const pod = join(dir, 'nodes', 'node-1', 'pods', 'uid-handler', 'volumes');
    writeVolumeAtomically(join(pod, 'kube-api-access-abcde'), new Map([['token', { content: Buffer.from('t'), mode: 0o644 }]]));
    mkdirSync(join(pod, 'scratch'), { recursive: true });
    mkdirSync(join(dir, 'pv'), { recursive: true });
    symlinkSync(join(dir, 'pv'), join(pod, 'disk'));
    writeFileSync(join(dir, 'nodes', 'node-1', 'handler.token'), 'h');
    expect(secretPaths(dir).sort()).toEqual([join(dir, 'nodes', 'node-1', 'handler.token'), join(pod, 'kube-api-access-abcde')].sort());
  });
});
