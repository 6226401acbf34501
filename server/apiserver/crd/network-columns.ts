/** kubectl's columns for Service, Endpoints and EndpointSlice (kube's internalversion printers). */
import type { BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';

type Obj = Record<string, unknown>;

const rec = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const spec = (o: unknown) => rec(rec(o).spec);
const age: BuiltinColumn = { name: 'Age', type: 'string', cell: (o, now) => humanAge(rec(rec(o).metadata).creationTimestamp, now) };
const column = (name: string, cell: (o: unknown) => unknown, priority?: number): BuiltinColumn => ({ name, type: 'string', cell, priority });

const MAX_SHOWN = 3;

/** the first three entries, then ` + N more...`; `empty` when there is none */
function upToThree(items: string[], empty: string): string {
  const shown = items.slice(0, MAX_SHOWN).join(',');
  if (items.length > MAX_SHOWN) return `${shown} + ${items.length - MAX_SHOWN} more...`;
  return shown || empty;
}

function loadBalancerIPs(o: unknown): string[] {
  return list(rec(rec(rec(o).status).loadBalancer).ingress).map((i) => str(rec(i).ip) || str(rec(i).hostname)).filter(Boolean);
}

/** getServiceExternalIP */
export function serviceExternalIP(o: unknown): string {
  const s = spec(o);
  const external = list(s.externalIPs).map(str);
  switch (s.type) {
    case 'ExternalName': return str(s.externalName);
    case 'LoadBalancer': {
      const ips = [...loadBalancerIPs(o), ...external];
      return ips.length ? ips.join(',') : '<pending>';
    }
    default: return external.length ? external.join(',') : '<none>';
  }
}

/** makePortString: port[:nodePort]/protocol, comma-separated */
export function servicePortsString(o: unknown): string {
  const ports = list(spec(o).ports).map(rec);
  if (!ports.length) return '<none>';
  return ports.map((p) => `${str(p.port)}${p.nodePort ? `:${str(p.nodePort)}` : ''}/${str(p.protocol) || 'TCP'}`).join(',');
}

function selectorString(o: unknown): string {
  const sel = Object.entries(rec(spec(o).selector)).sort(([a], [b]) => (a < b ? -1 : 1));
  return sel.length ? sel.map(([k, v]) => `${k}=${str(v)}`).join(',') : '<none>';
}

export const SERVICE_COLUMNS: BuiltinColumn[] = [
  column('Type', (o) => str(spec(o).type)),
  column('Cluster-IP', (o) => str(spec(o).clusterIP) || '<none>'),
  column('External-IP', serviceExternalIP),
  column('Port(s)', servicePortsString),
  age,
  column('Selector', selectorString, 1),
];

const hostPort = (ip: string, port: unknown) => (ip.includes(':') ? `[${ip}]:${str(port)}` : `${ip}:${str(port)}`);

/** formatEndpoints: ip:port for every address of every port, ips alone when a subset has no ports */
export function endpointsString(o: unknown): string {
  const items = list(rec(o).subsets).map(rec).flatMap((ss) => {
    const ips = list(ss.addresses).map((a) => str(rec(a).ip));
    const ports = list(ss.ports).map(rec);
    return ports.length ? ports.flatMap((p) => ips.map((ip) => hostPort(ip, p.port))) : ips;
  });
  return upToThree(items, '<none>');
}

export const ENDPOINTS_COLUMNS: BuiltinColumn[] = [column('Endpoints', endpointsString), age];

/** formatDiscoveryPorts: numbers, a name when the port has none, `*` when neither */
export function slicePortsString(o: unknown): string {
  return upToThree(list(rec(o).ports).map(rec).map((p) => (p.port !== undefined && p.port !== null ? str(p.port) : str(p.name) || '*')), '<unset>');
}

/** formatDiscoveryEndpoints: every address of every endpoint */
export function sliceEndpointsString(o: unknown): string {
  return upToThree(list(rec(o).endpoints).flatMap((e) => list(rec(e).addresses).map(str)), '<unset>');
}

export const ENDPOINT_SLICE_COLUMNS: BuiltinColumn[] = [
  column('AddressType', (o) => str(rec(o).addressType)),
  column('Ports', slicePortsString),
  column('Endpoints', sliceEndpointsString),
  age,
];
