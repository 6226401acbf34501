/**
 * Property test: the pure admitters never throw on hostile input, and every answer is either
 * "allowed" (with a patch that applies) or a well-formed denial. Prints p99 admission time.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { log } from '../../log';
import { mutateVMICreate, mutateVMIUpdate } from './mutators/vmi-mutator';
import { mutateVM } from './mutators/vm-mutator';
import { validateVMICreate, validateVMIUpdate } from './validators/vmi-validator';
import { validateVM } from './validators/vm-validator';
import { denyResponse } from './admission-review';
import { config, validVM, validVMI } from './test-fixtures';
import type { Cause } from './cause';

const RUNS_PER_KIND = 5000;
const now = new Date('2026-06-01T00:00:00Z');
const logger = log.child({ component: 'admission-fuzz' });

const KEYS = [
  'name', 'disk', 'cdrom', 'lun', 'bus', 'readonly', 'bootOrder', 'memory', 'guest', 'requests', 'limits', 'cpu', 'sockets',
  'cores', 'threads', 'maxSockets', 'volumes', 'networks', 'interfaces', 'pod', 'multus', 'networkName', 'masquerade', 'bridge',
  'slirp', 'containerDisk', 'image', 'cloudInitNoCloud', 'userData', 'userDataBase64', 'networkData', 'emptyDisk', 'capacity',
  'hostDisk', 'firmware', 'bootloader', 'efi', 'bios', 'secureBoot', 'machine', 'type', 'runStrategy', 'running', 'template',
  'spec', 'metadata', 'labels', 'hostname', 'subdomain', 'dnsPolicy', 'dnsConfig', 'ports', 'port', 'protocol', 'model',
  'macAddress', 'evictionStrategy', 'startStrategy', 'hugepages', 'pageSize', 'serial', 'uuid', 'architecture',
  'livenessProbe', 'readinessProbe', 'httpGet', 'inputs', 'watchdog', 'autoattachPodInterface', 'kubevirt.io/nodeName',
  'ownerReferences', 'finalizers', 'status', 'instancetype', '__proto__', 'constructor',
];

const nasty = fc.constantFrom<unknown>(
  -1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', 'x'.repeat(5000), '-1Gi', '1e999', '0.0000001', '9999999Ei', 'ide',
  'virtio', 'sata', 'cdrom', 'Always', 'WaitAsReceiver', 'None', 'default', true, false, null, [], {}, [null], [{}],
  { name: 'default' }, '\u0000', '../../etc/passwd', '%%%', 'YQ==',
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
  { arbitrary: nasty, weight: 4 },
  { arbitrary: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 250, maxLength: 300 }), weight: 1 },
);
const mutation = fc.record({
  op: fc.constantFrom('set', 'delete', 'addKey'),
  at: fc.nat(),
  key: fc.constantFrom(...KEYS),
  value,
});

type Container = Record<string, unknown> | unknown[];

/** Every object/array node of a JSON value with its parent slot. */
function containers(v: unknown, out: Container[] = []): Container[] {
  if (typeof v !== 'object' || v === null) return out;
  out.push(v as Container);
  for (const child of Object.values(v)) containers(child, out);
  return out;
}

function applyMutation(root: Record<string, unknown>, m: { op: string; at: number; key: string; value: unknown }): void {
  const nodes = containers(root);
  const node = nodes[m.at % nodes.length];
  const keys = Object.keys(node);
  const key = m.op === 'addKey' || keys.length === 0 ? m.key : keys[m.at % keys.length];
  const slot = Array.isArray(node) ? Number(key) || 0 : key;
  if (m.op === 'delete') delete (node as Record<string, unknown>)[slot];
  else Object.defineProperty(node, slot, { value: structuredClone(m.value), enumerable: true, writable: true, configurable: true });
}

const mutatedObject = (base: () => Record<string, unknown>) =>
  fc.array(mutation, { minLength: 1, maxLength: 4 }).map((ms) => {
    const obj = base();
    for (const m of ms) applyMutation(obj, m);
    return JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
  });

function checkCauses(causes: Cause[]): void {
  for (const c of causes) {
    expect(typeof c.type).toBe('string');
    expect(typeof c.field).toBe('string');
    expect(typeof c.message).toBe('string');
  }
  if (causes.length) {
    const r = denyResponse('uid', causes).response;
    expect(r.allowed).toBe(false);
    expect(r.status?.code).toBeGreaterThanOrEqual(400);
    expect(r.status?.code).toBeLessThan(500);
    expect(() => JSON.stringify(r)).not.toThrow();
  }
}

/** Mutating then validating webhook, the way the API server calls them; returns the time taken in ms. */
function admit(obj: Record<string, unknown>, old: Record<string, unknown>, kind: 'vm' | 'vmi'): { ms: number; denied: boolean } {
  const t0 = performance.now();
  const user = { username: 'alice' };
  const mctx = { config, now, user };
  const m = kind === 'vm' ? mutateVM(obj, undefined, mctx) : mutateVMICreate(obj, mctx);
  const patched = jsonpatch.applyPatch(structuredClone(obj), m.patch, true, false).newDocument;
  const causes = kind === 'vm' ? validateVM(patched, undefined, { config, user }) : validateVMICreate(patched, { config, user });
  const updMutation = kind === 'vm' ? mutateVM(obj, old, mctx) : mutateVMIUpdate(obj, old, mctx);
  jsonpatch.applyPatch(structuredClone(obj), updMutation.patch, true, false);
  const upd = kind === 'vm' ? validateVM(obj, old, { config, user }) : validateVMIUpdate(obj, old, { config, user });
  const dt = performance.now() - t0;
  checkCauses(causes);
  checkCauses(upd);
  return { ms: dt, denied: causes.length > 0 };
}

function p99(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))];
}

describe('admission fuzz', () => {
  it.each([
    ['vmi', validVMI],
    ['vm', validVM],
  ] as const)('%s: no throw, only allowed or 4xx over %#', (kind, base) => {
    const times: number[] = [];
    let denied = 0;
    fc.assert(
      fc.property(mutatedObject(base), (obj) => {
        const r = admit(obj, base(), kind);
        times.push(r.ms);
        if (r.denied) denied += 1;
      }),
      { numRuns: RUNS_PER_KIND, seed: 20260601 },
    );
    expect(times).toHaveLength(RUNS_PER_KIND);
    expect(denied).toBeGreaterThan(0);
    expect(denied).toBeLessThan(RUNS_PER_KIND);
    logger.info({ kind, runs: RUNS_PER_KIND, denied, p99Ms: Number(p99(times).toFixed(3)), maxMs: Number(Math.max(...times).toFixed(3)) }, 'admission fuzz');
  }, 120_000);
});
