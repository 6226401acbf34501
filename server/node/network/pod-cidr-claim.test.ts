import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimPodCidrIndex } from './pod-cidr-claim';

const temp = () => mkdtempSync(join(tmpdir(), 'cidr-'));
const DEAD_PID = 2 ** 22 + 12345; // above pid_max's default: never a live process

describe('pod range claims', () => {
  it('node-1 of one cluster gets 1; node-1 of a second, running cluster gets another range', () => {
    const registry = temp();
    const a = claimPodCidrIndex({ nodeName: 'node-1', nodeDir: join(temp(), 'node-1'), registry });
    const b = claimPodCidrIndex({ nodeName: 'node-1', nodeDir: join(temp(), 'node-1'), registry });
    expect(a.index).toBe(1);
    expect(b.index).not.toBe(1);
  });

  it('a restarted node keeps its range even when its preferred number is held by a live node', () => {
    const registry = temp();
    const other = claimPodCidrIndex({ nodeName: 'node-2', nodeDir: join(temp(), 'node-2'), registry });
    const mine = join(temp(), 'node-2');
    const first = claimPodCidrIndex({ nodeName: 'node-2', nodeDir: mine, registry });
    const again = claimPodCidrIndex({ nodeName: 'node-2', nodeDir: mine, registry });
    expect(other.index).toBe(2);
    expect(again.index).toBe(first.index);
  });

  it('a claim whose kubelet is gone is taken over; release frees a range', () => {
    const registry = temp();
    claimPodCidrIndex({ nodeName: 'node-1', nodeDir: join(temp(), 'node-1'), registry, pid: DEAD_PID });
    const taker = claimPodCidrIndex({ nodeName: 'node-1', nodeDir: join(temp(), 'node-1'), registry });
    expect(taker.index).toBe(1);
    taker.release();
    expect(claimPodCidrIndex({ nodeName: 'node-1', nodeDir: join(temp(), 'node-1'), registry }).index).toBe(1);
  });
});
