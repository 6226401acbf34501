/**
 * KubeVirt's VMI spec defaulting (pkg/defaults SetDefaultVirtualMachineInstanceSpec + v1 SetDefaults_*),
 * applied in place to a structurally valid spec. See AdmissionConfig for where we differ.
 */
import { isObject, objectsAt, stringAt, type JsonObject } from '../json-shape';
import type { AdmissionConfig } from '../admission-config';
import { quantityCeil } from '../../../../lib/kubevirt/quantity';

const DEFAULT_CPU_MODEL = 'host-model';
const DEFAULT_NETWORK = 'default';
const ensure = (o: JsonObject, k: string): JsonObject => (isObject(o[k]) ? (o[k] as JsonObject) : (o[k] = {}));
const has = (v: unknown) => v !== undefined && v !== null;

function setResourceDefaults(domain: JsonObject): void {
  const res = ensure(domain, 'resources');
  const limits = isObject(res.limits) ? res.limits : {};
  const requests = isObject(res.requests) ? res.requests : undefined;
  if (has(limits.cpu) && !has(requests?.cpu)) res.requests = { ...(requests ?? {}), cpu: limits.cpu };
  const mem = ensure(domain, 'memory');
  if (has(mem.guest)) return;
  const req = isObject(res.requests) ? res.requests.memory : undefined;
  if (has(req) && quantityCeil(req) !== 0) mem.guest = req;
  else if (has(limits.memory) && quantityCeil(limits.memory) !== 0) mem.guest = limits.memory;
  else if (isObject(mem.hugepages) && stringAt(mem.hugepages.pageSize)) mem.guest = mem.hugepages.pageSize;
}

function setCPUDefaults(domain: JsonObject, config: AdmissionConfig): void {
  const cpu = ensure(domain, 'cpu');
  if (!cpu.sockets && !cpu.cores && !cpu.threads) {
    const res = isObject(domain.resources) ? domain.resources : {};
    const lim = isObject(res.limits) ? res.limits.cpu : undefined;
    const req = isObject(res.requests) ? res.requests.cpu : undefined;
    cpu.sockets = Math.max(1, quantityCeil(has(lim) ? lim : req) ?? 1);
    cpu.cores = 1;
    cpu.threads = 1;
  }
  if (!stringAt(cpu.model)) cpu.model = config.cpuModel || DEFAULT_CPU_MODEL;
}

function setDiskDefaults(spec: JsonObject, devices: JsonObject, config: AdmissionConfig): void {
  const disks = Array.isArray(devices.disks) ? devices.disks : (devices.disks = []);
  const names = new Set(objectsAt(disks).map(([d]) => d.name));
  for (const [v] of objectsAt(spec.volumes)) {
    if (!names.has(v.name) && !has(v.memoryDump)) disks.push({ name: v.name });
  }
  for (const [d] of objectsAt(disks)) setDiskTargetDefaults(d, config);
}

function setDiskTargetDefaults(d: JsonObject, config: AdmissionConfig): void {
  if (!isObject(d.disk) && !isObject(d.cdrom) && !isObject(d.lun)) d.disk = {};
  if (isObject(d.disk) && !d.disk.bus) d.disk.bus = config.defaultDiskBus;
  if (isObject(d.lun) && !d.lun.bus) d.lun.bus = config.defaultDiskBus;
  if (!isObject(d.cdrom)) return;
  if (!d.cdrom.bus) d.cdrom.bus = config.defaultCDRomBus;
  if (!has(d.cdrom.readonly)) d.cdrom.readonly = true;
  if (!d.cdrom.tray) d.cdrom.tray = 'closed';
}

function setNetworkDefaults(spec: JsonObject, devices: JsonObject, config: AdmissionConfig): void {
  const noNets = !Array.isArray(spec.networks) || spec.networks.length === 0;
  const noIfaces = !Array.isArray(devices.interfaces) || devices.interfaces.length === 0;
  if (!noNets || !noIfaces || devices.autoattachPodInterface === false) return;
  spec.networks = [{ name: DEFAULT_NETWORK, pod: {} }];
  devices.interfaces = [{ name: DEFAULT_NETWORK, [config.defaultNetworkInterface]: {} }];
}

function setDeviceDefaults(devices: JsonObject): void {
  for (const [i] of objectsAt(devices.inputs)) {
    if (!i.bus) i.bus = 'usb';
    if (!i.type) i.type = 'tablet';
  }
  if (isObject(devices.watchdog)) {
    const w = ensure(devices.watchdog, 'i6300esb');
    if (!w.action) w.action = 'reset';
  }
}

function setProbeDefaults(spec: JsonObject): void {
  for (const key of ['readinessProbe', 'livenessProbe']) {
    const p = spec[key];
    if (!isObject(p)) continue;
    const atLeast = (k: string, min: number, dflt: number) => { if (typeof p[k] !== 'number' || p[k] < min) p[k] = dflt; };
    atLeast('timeoutSeconds', 1, 1);
    atLeast('periodSeconds', 1, 10);
    atLeast('successThreshold', 1, 1);
    atLeast('failureThreshold', 1, 3);
  }
}

function setPullPolicies(spec: JsonObject): void {
  for (const [v] of objectsAt(spec.volumes)) {
    const cd = v.containerDisk;
    if (!isObject(cd) || cd.imagePullPolicy) continue;
    const image = stringAt(cd.image) ?? '';
    cd.imagePullPolicy = image.endsWith(':latest') || !/[:@]/.test(image) ? 'Always' : 'IfNotPresent';
  }
}

/** Architecture and machine type: the only template defaults KubeVirt's VM mutator applies. */
export function applyMachineDefaults(spec: JsonObject, config: AdmissionConfig): void {
  if (!stringAt(spec.architecture)) spec.architecture = config.architecture;
  const domain = ensure(spec, 'domain');
  const machine = ensure(domain, 'machine');
  if (!stringAt(machine.type)) machine.type = config.machineTypes[spec.architecture as string] ?? config.machineTypes.amd64;
}

/** All VMI-create spec defaults (firmware UUID is the caller's: it depends on who creates the VMI). */
export function applyVMISpecDefaults(spec: JsonObject, config: AdmissionConfig): void {
  applyMachineDefaults(spec, config);
  const domain = ensure(spec, 'domain');
  const devices = ensure(domain, 'devices');
  setResourceDefaults(domain);
  setCPUDefaults(domain, config);
  setPullPolicies(spec);
  if (!has(spec.evictionStrategy) && config.evictionStrategy) spec.evictionStrategy = config.evictionStrategy;
  setNetworkDefaults(spec, devices, config);
  setDiskDefaults(spec, devices, config);
  ensure(domain, 'firmware');
  ensure(domain, 'features');
  setDeviceDefaults(devices);
  setProbeDefaults(spec);
  const mem = domain.memory;
  if (isObject(mem) && Object.keys(mem).length === 0) delete domain.memory;
}
