import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDomainFiles } from './prepare-files';

describe('createDomainFiles', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an emptyDisk sparse: a 20Gi disk takes well under 1Mi of the store until the guest writes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'emptydisk-'));
    const path = join(dir, 'disks', 'scratch.qcow2');
    await createDomainFiles([{ kind: 'emptyDisk', path, sizeBytes: 20 * 2 ** 30 }]);
    const st = statSync(path);
    expect(st.blocks * 512).toBeLessThan(2 ** 20);
  });
});
