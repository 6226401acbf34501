/**
 * fast-check arbitraries for hostile VirtualMachine / VirtualMachineInstance manifests: a valid
 * demo manifest with 1–4 random edits (replace a value, delete a key, add a known KubeVirt key)
 * anywhere in the tree, with values chosen to hit parsers (quantities, enums, huge numbers, nulls).
 */
import fc from 'fast-check';
import { demoVM, NS } from './vm-fixtures';

const FIELD_NAMES = [
  'name', 'disk', 'cdrom', 'lun', 'bus', 'bootOrder', 'memory', 'guest', 'requests', 'limits', 'cpu', 'sockets', 'cores',
  'threads', 'volumes', 'networks', 'interfaces', 'pod', 'masquerade', 'bridge', 'containerDisk', 'image', 'cloudInitNoCloud',
  'userData', 'emptyDisk', 'capacity', 'firmware', 'kernelBoot', 'bootloader', 'efi', 'bios', 'machine', 'type', 'runStrategy',
  'running', 'template', 'spec', 'metadata', 'labels', 'annotations', 'hostname', 'subdomain', 'dnsPolicy', 'ports', 'model',
  'macAddress', 'evictionStrategy', 'startStrategy', 'hugepages', 'uuid', 'livenessProbe', 'terminationGracePeriodSeconds',
  'finalizers', 'ownerReferences', 'status', '__proto__', 'constructor',
];

const HOSTILE_VALUES = fc.constantFrom<unknown>(
  -1, 0, 0.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', 'x'.repeat(3000), '-1Gi', '1e999', '128Mi', '0.001', '99999Ei', 'virtio',
  'sata', 'scsi', 'ide', 'Always', 'Halted', 'Manual', 'WaitAsReceiver', 'q35', 'pc-i440fx-2.0', true, false, null, [], {}, [null],
  [{}], { name: 'default' }, '\u0000', '../../etc/passwd', 'YQ==', 'not-a-uuid',
);

const VALUE: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: HOSTILE_VALUES, weight: 5 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
  { arbitrary: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 100, maxLength: 200 }), weight: 1 },
);

const EDIT = fc.record({ op: fc.constantFrom('set', 'delete', 'add'), at: fc.nat(), key: fc.constantFrom(...FIELD_NAMES), value: VALUE });
type Edit = { op: string; at: number; key: string; value: unknown };
type Node = Record<string, unknown> | unknown[];

function nodesOf(v: unknown, out: Node[] = []): Node[] {
  if (typeof v !== 'object' || v === null) return out;
  out.push(v as Node);
  for (const child of Object.values(v)) nodesOf(child, out);
  return out;
}

function applyEdit(root: object, e: Edit): void {
  const nodes = nodesOf(root);
  const node = nodes[e.at % nodes.length];
  const keys = Object.keys(node);
  const key = e.op === 'add' || keys.length === 0 ? e.key : keys[e.at % keys.length];
  const slot = Array.isArray(node) ? Number(key) || 0 : key;
  if (e.op === 'delete') delete (node as Record<string, unknown>)[slot];
  else Object.defineProperty(node, slot, { value: structuredClone(e.value), enumerable: true, writable: true, configurable: true });
}

export type Kind = 'VirtualMachine' | 'VirtualMachineInstance';

function baseManifest(kind: Kind, name: string): Record<string, unknown> {
  const vm = demoVM(name, { runStrategy: 'Halted', userScript: '#!/bin/sh\necho hi\n' });
  if (kind === 'VirtualMachine') return vm;
  return { apiVersion: 'kubevirt.io/v1', kind, metadata: { name, namespace: NS }, spec: vm.spec.template.spec };
}

/** `count` mutated manifests, half VMs and half VMIs, reproducible from `seed`. */
export function sampleMutatedManifests(count: number, seed: number): { kind: Kind; body: Record<string, unknown> }[] {
  const arb = fc.tuple(fc.constantFrom<Kind>('VirtualMachine', 'VirtualMachineInstance'), fc.array(EDIT, { minLength: 1, maxLength: 4 }));
  return fc.sample(arb, { numRuns: count, seed }).map(([kind, edits], i) => {
    const body = baseManifest(kind, `fuzz-${i}`);
    for (const e of edits) applyEdit(body, e);
    return { kind, body: JSON.parse(JSON.stringify(body)) };
  });
}
