/**
 * Cluster IPs and node ports of Services. The stored Services are the allocation record (so a
 * restart, or a delete, needs no bookkeeping); values being handed out to writes not yet committed
 * are held in a per-store reservation set. Writes run on one thread and nothing awaits between the
 * scan and the reservation, so two creates never get the same value.
 */
import type { Store } from '../../../store/types';
import { objectPrefix } from '../../codec/object-codec';
import type { StatusCause } from '../../status-error';
import { asRecord, asString } from '../storage-kinds/field-errors';
import { pickValue, staticBand, type Pick } from './allocation';
import { goStringSlice } from './go-values';
import { formatIpv4, parseIpv4 } from './ipv4';
import { rawInvalid } from './service-validation';
import {
  CLUSTER_IP_VALUES, HEADLESS, NODE_PORT_RANGE, SERVICE_CIDR, SERVICE_RANGE, clusterIPsOf, serviceSpec, servicePorts, usesClusterIP, usesNodePorts,
} from './service-fields';

type Obj = Record<string, unknown>;

const SERVICES = { group: '', resource: 'services', namespaced: true };
const IP_BAND = staticBand(SERVICE_RANGE.size, 256);
const PORT_BAND = staticBand(NODE_PORT_RANGE.last - NODE_PORT_RANGE.first + 1, 128);

interface Reservations { ips: Set<number>; ports: Set<number> }
const pending = new WeakMap<Store, Reservations>();

function reservations(store: Store): Reservations {
  let r = pending.get(store);
  if (!r) pending.set(store, (r = { ips: new Set(), ports: new Set() }));
  return r;
}

const identity = (o: Obj) => `${asString(asRecord(o.metadata).namespace) ?? ''}/${asString(asRecord(o.metadata).name) ?? ''}`;

/** every cluster IP and node port held by a stored Service (but `except`) or a pending write */
export function usedValues(store: Store, except?: string): Reservations {
  const r = reservations(store);
  const used: Reservations = { ips: new Set(r.ips), ports: new Set(r.ports) };
  for (const kv of store.list(objectPrefix(SERVICES)).items) {
    const svc = JSON.parse(kv.value) as Obj;
    if (identity(svc) === except) continue;
    const spec = asRecord(svc.spec);
    for (const ip of clusterIPsOf(spec)) {
      const n = parseIpv4(ip);
      if (n !== undefined) used.ips.add(n);
    }
    for (const p of servicePorts(spec)) if (typeof p.nodePort === 'number') used.ports.add(p.nodePort);
    if (typeof spec.healthCheckNodePort === 'number') used.ports.add(spec.healthCheckNodePort);
  }
  return used;
}

export interface Allocation {
  causes: StatusCause[];
  /** drops this write's reservations: call once the write committed or failed */
  release(): void;
}

function ipCause(ip: string, pick: Pick): StatusCause[] {
  if (pick.ok) return [];
  const why = pick.error === 'allocated' ? 'provided IP is already allocated'
    : pick.error === 'range' ? `provided IP is not in the valid range. The range of valid IPs is ${SERVICE_CIDR}` : 'range is full';
  return [rawInvalid('spec.clusterIPs', goStringSlice([ip]), `failed to allocate IP ${ip}: ${why}`)];
}

function portCause(i: number, port: number, pick: Pick): StatusCause[] {
  if (pick.ok) return [];
  const why = pick.error === 'allocated' ? 'provided port is already allocated'
    : pick.error === 'range' ? `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.first}-${NODE_PORT_RANGE.last}` : 'range is full';
  return [rawInvalid(`spec.ports[${i}].nodePort`, String(port), why)];
}

interface AllocCtx { spec: Obj; oldSpec: Obj; used: Reservations; mine: Reservations }

function allocateClusterIP(a: AllocCtx): StatusCause[] {
  const { spec, oldSpec } = a;
  const ips = clusterIPsOf(spec);
  if (!usesClusterIP(spec) || ips[0] === HEADLESS) return [];
  if (ips.length && ips[0] === clusterIPsOf(oldSpec)[0]) return [];
  const requested = ips.length ? parseIpv4(ips[0]) : undefined;
  if (ips.length && requested === undefined) return [];
  const pick = pickValue({ range: CLUSTER_IP_VALUES, used: a.used.ips, requested, band: IP_BAND });
  if (!pick.ok) return ipCause(ips[0] ?? '', pick);
  a.mine.ips.add(pick.value);
  spec.clusterIP = formatIpv4(pick.value);
  spec.clusterIPs = [spec.clusterIP, ...ips.slice(1)];
  return [];
}

function allocateNodePorts(a: AllocCtx): StatusCause[] {
  if (!usesNodePorts(a.spec)) return [];
  const kept = new Set(servicePorts(a.oldSpec).map((p) => p.nodePort).filter((n): n is number => typeof n === 'number'));
  const causes: StatusCause[] = [];
  servicePorts(a.spec).forEach((p, i) => {
    const requested = typeof p.nodePort === 'number' && p.nodePort !== 0 ? p.nodePort : undefined;
    if (requested !== undefined && kept.has(requested)) return;
    const used = new Set([...a.used.ports, ...a.mine.ports]);
    const pick = pickValue({ range: NODE_PORT_RANGE, used, requested, band: PORT_BAND });
    if (!pick.ok) return void causes.push(...portCause(i, requested ?? 0, pick));
    a.mine.ports.add(pick.value);
    p.nodePort = pick.value;
  });
  return causes;
}

/**
 * Gives a Service being created (old undefined) or updated its cluster IP and node ports: requested
 * values checked, missing ones drawn. Values the stored Service already holds stay its own.
 */
export function allocateServiceValues(store: Store, svc: Obj, old?: Obj): Allocation {
  const spec = serviceSpec(svc);
  const a: AllocCtx = { spec, oldSpec: asRecord(old?.spec), used: usedValues(store, old ? identity(old) : undefined), mine: { ips: new Set(), ports: new Set() } };
  const causes = [...allocateClusterIP(a), ...allocateNodePorts(a)];
  const r = reservations(store);
  const release = () => {
    for (const ip of a.mine.ips) r.ips.delete(ip);
    for (const port of a.mine.ports) r.ports.delete(port);
  };
  if (causes.length) return { causes, release: () => undefined };
  for (const ip of a.mine.ips) r.ips.add(ip);
  for (const port of a.mine.ports) r.ports.add(port);
  if (usesClusterIP(spec) && clusterIPsOf(spec).length) {
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
  }
  return { causes, release };
}
