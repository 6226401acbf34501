/** Network and interface rules (KubeVirt pkg/network/admitter): names, pairing, bindings, models, ports. */
import { duplicate, invalid, type Cause } from '../cause';
import { isObject, objectsAt, stringAt, type JsonObject } from '../json-shape';
import type { AdmissionConfig } from '../admission-config';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

export const MAX_NETWORKS = 256;
const NIC_MODELS = ['virtio', 'e1000', 'e1000e', 'igb', 'ne2k_pci', 'pcnet', 'rtl8139'];
const IFACE_NAME_RE = /^[A-Za-z0-9_-]+$/;
const BINDINGS = ['masquerade', 'bridge', 'sriov', 'passtBinding', 'binding'];
const DISCONTINUED: [string, string][] = [
  ['slirp', 'Slirp interface support has been discontinued since v1.3'],
  ['passt', 'Passt network binding has been discontinued since v1.3'],
  ['macvtap', 'Macvtap network binding has been discontinued since v1.3'],
];
const RESERVED_MAC = '02:00:00:00:00:00';
/** what Go's net.ParseMAC takes for a 48-bit address: aa:bb:.. , aa-bb-.. or aabb.ccdd.eeff */
const MAC_FORMS = [/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i, /^[0-9a-f]{2}(-[0-9a-f]{2}){5}$/i, /^[0-9a-f]{4}(\.[0-9a-f]{4}){2}$/i];
const canonicalMac = (mac: string) => mac.replace(/[:.-]/g, '').toLowerCase();
const present = (v: unknown) => v !== undefined && v !== null;

function validateNetworks(nets: [JsonObject, number][], base: string): Cause[] {
  const out: Cause[] = [];
  const names = new Set<string>();
  let multusDefaults = 0;
  const hasPod = nets.some(([n]) => present(n.pod));
  for (const [n, i] of nets) {
    const f = `${base}[${i}]`;
    const name = stringAt(n.name) ?? '';
    if (names.has(name)) out.push(invalid(`${f}.name`, `Network with name "${name}" already exists, every network must have a unique name`));
    names.add(name);
    const types = [n.pod, n.multus].filter(present).length;
    if (types !== 1) out.push(invalid(f, 'should have only one network type'));
    if (isObject(n.multus)) {
      if (!stringAt(n.multus.networkName)) out.push(invalid(`${f}.multus.networkName`, 'CNI delegating plugin must have a networkName'));
      if (n.multus.default === true) multusDefaults += 1;
    }
  }
  if (multusDefaults > 1) out.push(invalid(base, 'Multus CNI should only have one default network'));
  if (multusDefaults > 0 && hasPod) out.push(invalid(base, 'Pod network cannot be defined when Multus default network is defined'));
  return out;
}

function validateBinding(f: string, iface: JsonObject, net: JsonObject | undefined, config: AdmissionConfig): Cause[] {
  const out: Cause[] = [];
  for (const [key, msg] of DISCONTINUED) if (present(iface[key])) out.push(invalid(`${f}.${key}`, msg));
  const name = stringAt(iface.name) ?? '';
  const bindings = BINDINGS.filter((b) => present(iface[b])).length;
  if (bindings > 1) out.push(invalid(f, `logical ${name} interface must have exactly one binding method or binding plugin`));
  const onPod = !!net && present(net.pod);
  if (present(iface.masquerade) && net && !onPod) out.push(invalid(`${f}.masquerade`, 'Masquerade interface only implemented with pod network'));
  if (present(iface.bridge) && onPod && !config.permitBridgeInterfaceOnPodNetwork) {
    out.push(invalid(`${f}.bridge`, 'Bridge on pod network configuration is not enabled under kubevirt-config'));
  }
  return out;
}

function validatePorts(f: string, iface: JsonObject): Cause[] {
  const out: Cause[] = [];
  const names = new Set<string>();
  for (const [p, j] of objectsAt(iface.ports)) {
    const pf = `${f}.ports[${j}]`;
    const port = p.port;
    if (typeof port !== 'number' || port <= 0 || port >= 65536) out.push(invalid(`${pf}.port`, 'Port field must be in range 0 < x < 65536.'));
    const proto = stringAt(p.protocol);
    if (proto && proto !== 'TCP' && proto !== 'UDP') out.push(invalid(`${pf}.protocol`, 'Unknown protocol, only TCP or UDP allowed'));
    const pn = stringAt(p.name);
    if (pn) {
      if (names.has(pn)) out.push(invalid(`${pf}.name`, `Duplicate name of the port: ${pn}`));
      names.add(pn);
    }
  }
  return out;
}

function validateInterface(f: string, iface: JsonObject, net: JsonObject | undefined, config: AdmissionConfig): Cause[] {
  const out = validateBinding(f, iface, net, config);
  const name = stringAt(iface.name) ?? '';
  if (name && !IFACE_NAME_RE.test(name)) {
    out.push(invalid(`${f}.name`, 'Network interface name can only contain alphabetical characters, numbers, dashes (-) or underscores (_)'));
  }
  const model = stringAt(iface.model);
  if (model && !NIC_MODELS.includes(model)) out.push(invalid(`${f}.model`, `interface ${f}.name uses model ${model} that is not supported.`));
  const mac = stringAt(iface.macAddress);
  if (mac && !MAC_FORMS.some((re) => re.test(mac))) out.push(invalid(`${f}.macAddress`, `interface ${f}.name has malformed MAC address (${mac}).`));
  else if (mac && canonicalMac(mac) === canonicalMac(RESERVED_MAC)) {
    out.push(invalid(`${f}.macAddress`, 'The requested MAC address is reserved for the in-pod bridge. Please choose another one.'));
  }
  if (typeof iface.bootOrder === 'number' && iface.bootOrder < 1) out.push(invalid(`${f}.bootOrder`, `${f} must have a boot order > 0, if supplied`));
  out.push(...validatePorts(f, iface));
  return out;
}

/** two NICs of one VMI with one MAC would answer for each other (KubeVirt leaves this to kubemacpool; we refuse it here) */
function validateUniqueMacs(ifaces: [JsonObject, number][], ifBase: string): Cause[] {
  const seen = new Map<string, string>();
  const out: Cause[] = [];
  for (const [iface, i] of ifaces) {
    const mac = stringAt(iface.macAddress);
    if (!mac || !MAC_FORMS.some((re) => re.test(mac))) continue;
    const first = seen.get(canonicalMac(mac));
    if (first) out.push(duplicate(`${ifBase}[${i}].macAddress`, `interface ${ifBase}[${i}].name has MAC address ${mac} already used by interface ${first}`));
    else seen.set(canonicalMac(mac), stringAt(iface.name) ?? `${ifBase}[${i}]`);
  }
  return out;
}

export function validateNetworking(spec: VirtualMachineInstanceSpec, field: string, config: AdmissionConfig): Cause[] {
  const netBase = `${field}.networks`;
  const ifBase = `${field}.domain.devices.interfaces`;
  const nets = objectsAt(spec.networks);
  const ifaces = objectsAt(spec.domain?.devices?.interfaces);
  if (Array.isArray(spec.networks) && spec.networks.length > MAX_NETWORKS) {
    return [invalid(netBase, `${netBase} list exceeds the ${MAX_NETWORKS} element limit in length`)];
  }
  const out = [...validateNetworks(nets, netBase), ...validateUniqueMacs(ifaces, ifBase)];
  const netByName = new Map(nets.map(([n]) => [stringAt(n.name) ?? '', n]));
  const ifaceNames = new Set<string>();
  let podIfaces = 0;
  for (const [iface, i] of ifaces) {
    const f = `${ifBase}[${i}]`;
    const name = stringAt(iface.name) ?? '';
    const net = netByName.get(name);
    if (ifaceNames.has(name)) out.push(invalid(`${f}.name`, 'Only one interface can be connected to one specific network'));
    ifaceNames.add(name);
    if (!net) out.push(invalid(`${f}.name`, `${f}.name '${name}' not found.`));
    else if (present(net.pod)) podIfaces += 1;
    out.push(...validateInterface(f, iface, net, config));
  }
  const podNets = nets.filter(([n]) => present(n.pod)).length;
  if (podIfaces > 1 || podNets > 1) out.push(invalid(ifBase, `more than one interface is connected to a pod network in ${ifBase}`));
  for (const [n, i] of nets) {
    const name = stringAt(n.name) ?? '';
    if (!ifaceNames.has(name)) out.push(invalid(`${netBase}[${i}].name`, `${netBase}[${i}].name '${name}' not found.`));
  }
  return out;
}
