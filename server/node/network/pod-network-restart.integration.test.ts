import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './ip-command';
import { DEFAULT_REGISTRY } from './pod-cidr-claim';
import { PodNetwork, podNetworkUnavailableReason } from './pod-network';

const nodeDir = mkdtempSync(join(tmpdir(), 'podnet-'));
const UID_KEPT = '11111111-aaaa-4bbb-8ccc-000000000001';
const UID_GONE = '22222222-aaaa-4bbb-8ccc-000000000002';
const registry = process.env.KV_POD_CIDR_REGISTRY ?? DEFAULT_REGISTRY;

/** the host-wide pod-range claims (pod-cidr-claim.ts) this test's node holds */
const claimsOfThisNode = () => (existsSync(registry) ? readdirSync(registry) : [])
  .filter((f) => { try { return readFileSync(join(registry, f), 'utf8').split('\n')[0] === nodeDir; } catch { return false; } });

describe.skipIf(podNetworkUnavailableReason() !== undefined)('pod network across a kubelet restart (real namespaces)', () => {
  // made in beforeAll, not while collecting: a skipped run claims no pod range at all
  let first: PodNetwork;
  beforeAll(() => { first = new PodNetwork({ nodeName: 'node-232', nodeDir }); });
  afterAll(() => {
    // a failed test still leaves nothing on the host: namespaces, bridge, table and the range's claim
    first?.detach(UID_KEPT);
    first?.detach(UID_GONE);
    first?.teardown();
    rmSync(nodeDir, { recursive: true, force: true });
  });

  it('keeps the addresses of pods still running and removes the namespaces of pods that are gone', () => {
    expect(claimsOfThisNode()).toEqual([String(first.podCidr.split('.')[2])]);
    first.ensureNode();
    const kept = first.attach(UID_KEPT);
    const gone = first.attach(UID_GONE);
    expect(run('ip', ['-n', kept.netns, '-4', '-o', 'addr', 'show', 'dev', 'eth0'])).toContain(`${kept.ip}/24`);
    expect(run('ip', ['netns', 'exec', kept.netns, 'ping', '-c', '1', '-W', '2', gone.ip])).toContain('1 received');

    const restarted = new PodNetwork({ nodeName: 'node-232', nodeDir });
    restarted.ensureNode(); // idempotent on an existing bridge and table
    expect(restarted.podCidr).toBe(first.podCidr); // the restarted node takes its own claim back
    const removed = restarted.cleanupStale(new Set([UID_KEPT]));
    expect(removed).toEqual([gone.netns]);
    expect(existsSync(`/run/netns/${gone.netns}`)).toBe(false);
    expect(existsSync(`/run/netns/${kept.netns}`)).toBe(true);
    expect(restarted.ipOf(UID_KEPT)).toBe(kept.ip);
    expect(restarted.ipOf(UID_GONE)).toBeUndefined();
    expect(restarted.attach(UID_KEPT)).toEqual(kept); // re-attach finds the same namespace and address
  });

  it('the node torn down leaves no pod-range claim in the host registry', () => {
    first.detach(UID_KEPT);
    first.teardown();
    expect(claimsOfThisNode()).toEqual([]);
    expect(() => run('ip', ['link', 'show', first.bridge])).toThrow();
  });
});
