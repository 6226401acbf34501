/** Volume rules: unique names, exactly one source, cloud-init limits, required source fields. */
import { invalid, required, type Cause } from '../cause';
import { isObject, objectsAt, stringAt, type JsonObject } from '../json-shape';
import type { AdmissionConfig } from '../admission-config';
import { validateEmptyDiskCapacity } from './empty-disk-bounds';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

export const MAX_VOLUMES = 256;
export const CLOUD_INIT_USER_MAX_LEN = 2048;
export const CLOUD_INIT_NETWORK_MAX_LEN = 2048;
const HOST_DISK_GATE = 'HostDisk';
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

const SOURCES = [
  'containerDisk', 'cloudInitNoCloud', 'cloudInitConfigDrive', 'emptyDisk', 'persistentVolumeClaim', 'dataVolume',
  'ephemeral', 'hostDisk', 'configMap', 'secret', 'serviceAccount', 'downwardAPI', 'downwardMetrics', 'sysprep',
  'memoryDump', 'containerPath',
] as const;

const byteLength = (s: string) => new TextEncoder().encode(s).length;
const isBase64 = (s: string) => s.length % 4 === 0 && BASE64_RE.test(s);

function validateCloudInit(f: string, ci: JsonObject): Cause[] {
  const out: Cause[] = [];
  const user = [ci.userData, ci.userDataBase64, ci.secretRef].filter((x) => x !== undefined && x !== null).length;
  const net = [ci.networkData, ci.networkDataBase64, ci.networkDataSecretRef].filter((x) => x !== undefined && x !== null).length;
  if (user > 1) out.push(invalid(f, `${f} must have only one userdatasource set.`));
  if (net > 1) out.push(invalid(f, `${f} must have only one networkdatasource set.`));
  if (user === 0 && net === 0) out.push(invalid(f, `${f} must have at least one userdatasource or one networkdatasource set.`));
  const b64 = stringAt(ci.userDataBase64);
  if (b64 !== undefined && !isBase64(b64)) out.push(invalid(`${f}.userDataBase64`, `${f}.userDataBase64 is not a valid base64 value.`));
  if (dataLength(ci.userData, ci.userDataBase64) > CLOUD_INIT_USER_MAX_LEN) {
    out.push(invalid(f, `${f} userdata exceeds ${CLOUD_INIT_USER_MAX_LEN} byte limit. Should use UserDataSecretRef for larger data.`));
  }
  const nb64 = stringAt(ci.networkDataBase64);
  if (nb64 !== undefined && !isBase64(nb64)) out.push(invalid(`${f}.networkDataBase64`, `${f}.networkDataBase64 is not a valid base64 value.`));
  if (dataLength(ci.networkData, ci.networkDataBase64) > CLOUD_INIT_NETWORK_MAX_LEN) {
    out.push(invalid(f, `${f} networkdata exceeds ${CLOUD_INIT_NETWORK_MAX_LEN} byte limit. Should use NetworkDataSecretRef for larger data.`));
  }
  return out;
}

/** Bytes of plain data, or of base64 data once decoded. */
function dataLength(plain: unknown, b64: unknown): number {
  if (typeof plain === 'string') return byteLength(plain);
  return typeof b64 === 'string' ? Math.floor((b64.length * 3) / 4) : 0;
}

function validateSource(f: string, v: JsonObject, config: AdmissionConfig): Cause[] {
  const out: Cause[] = [];
  const cd = v.containerDisk;
  if (isObject(cd) && !stringAt(cd.image)) out.push(required(`${f}.containerDisk.image`, `${f}.containerDisk.image is a required field`));
  for (const key of ['cloudInitNoCloud', 'cloudInitConfigDrive']) {
    if (isObject(v[key])) out.push(...validateCloudInit(`${f}.${key}`, v[key] as JsonObject));
  }
  const hd = v.hostDisk;
  if (isObject(hd)) {
    if (!config.featureGates.includes(HOST_DISK_GATE)) out.push(invalid(`${f}.hostDisk`, 'HostDisk feature gate is not enabled'));
    if (!stringAt(hd.path)) out.push(invalid(`${f}.hostDisk.path`, `${f}.hostDisk.path is required for hostDisk volume`));
    if (hd.type !== 'Disk' && hd.type !== 'DiskOrCreate') {
      out.push(invalid(`${f}.hostDisk.type`, `${f}.hostDisk's type must be either 'DiskOrCreate' or 'Disk'`));
    }
  }
  if (isObject(v.emptyDisk)) out.push(...validateEmptyDiskCapacity(f, v.emptyDisk));
  const pvc = v.persistentVolumeClaim;
  if (isObject(pvc) && !stringAt(pvc.claimName)) {
    out.push(required(`${f}.persistentVolumeClaim.claimName`, `${f}.persistentVolumeClaim.claimName is a required field`));
  }
  return out;
}

export function validateVolumes(spec: VirtualMachineInstanceSpec, field: string, config: AdmissionConfig): Cause[] {
  const base = `${field}.volumes`;
  const out: Cause[] = [];
  if (Array.isArray(spec.volumes) && spec.volumes.length > MAX_VOLUMES) {
    return [invalid(base, `${base} list exceeds the ${MAX_VOLUMES} element limit in length`)];
  }
  const seen = new Map<string, number>();
  for (const [v, i] of objectsAt(spec.volumes)) {
    const f = `${base}[${i}]`;
    const name = stringAt(v.name) ?? '';
    const first = seen.get(name);
    if (first !== undefined) out.push(invalid(`${f}.name`, `${f} and ${base}[${first}] must not have the same Name.`));
    else seen.set(name, i);
    const sources = SOURCES.filter((s) => v[s] !== undefined && v[s] !== null).length;
    if (sources !== 1) out.push(invalid(f, `${f} must have exactly one source type set`));
    out.push(...validateSource(f, v, config));
  }
  return out;
}

/** VMI only: every volume is used by a disk (memory dumps excepted). */
export function validateVolumesHaveDisks(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const diskNames = new Set(objectsAt(spec.domain?.devices?.disks).map(([d]) => stringAt(d.name)));
  const out: Cause[] = [];
  for (const [v, i] of objectsAt(spec.volumes)) {
    if (v.memoryDump !== undefined && v.memoryDump !== null) continue;
    const name = stringAt(v.name) ?? '';
    const f = `${field}.domain.volumes[${i}].name`;
    if (!diskNames.has(name)) out.push(invalid(f, `${f} '${name}' not found.`));
  }
  return out;
}
