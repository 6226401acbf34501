/** KubeVirt's accessCredentials rules: one credential type each, one source, one propagation method, its volume or users. */
import { invalid, type Cause } from '../cause';
import { isObject, objectsAt, type JsonObject } from '../json-shape';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

export const MAX_ACCESS_CREDENTIALS = 256;

function hasVolume(spec: VirtualMachineInstanceSpec, kind: 'cloudInitNoCloud' | 'cloudInitConfigDrive'): boolean {
  return (spec.volumes ?? []).some((v) => isObject((v as unknown as JsonObject)[kind]));
}

function checkSshKey(spec: VirtualMachineInstanceSpec, at: string, key: JsonObject): Cause[] {
  const out: Cause[] = [];
  const method = isObject(key.propagationMethod) ? key.propagationMethod : {};
  let methods = 0;
  if (isObject(method.noCloud)) {
    methods++;
    if (!hasVolume(spec, 'cloudInitNoCloud')) out.push(invalid(`${at}.sshPublicKey.propagationMethod`, `${at} requires a noCloud volume to exist when the noCloud propagationMethod is in use.`));
  }
  if (isObject(method.configDrive)) {
    methods++;
    if (!hasVolume(spec, 'cloudInitConfigDrive')) out.push(invalid(`${at}.sshPublicKey.propagationMethod`, `${at} requires a configDrive volume to exist when the configDrive propagationMethod is in use.`));
  }
  if (isObject(method.qemuGuestAgent)) {
    methods++;
    const users = method.qemuGuestAgent.users;
    if (!Array.isArray(users) || users.length === 0) out.push(invalid(`${at}.sshPublicKey.propagationMethod.qemuGuestAgent.users`, `${at} requires at least one user to be present in the users list`));
  }
  const source = isObject(key.source) && isObject(key.source.secret) ? 1 : 0;
  if (source !== 1) out.push(invalid(`${at}.sshPublicKey.source`, `${at} must have exactly one source set`));
  if (methods !== 1) out.push(invalid(`${at}.sshPublicKey.propagationMethod`, `${at} must have exactly one propagationMethod set`));
  return out;
}

function checkPassword(at: string, pw: JsonObject): Cause[] {
  const out: Cause[] = [];
  if (!(isObject(pw.source) && isObject(pw.source.secret))) out.push(invalid(`${at}.userPassword.source`, `${at} must have exactly one source set`));
  if (!(isObject(pw.propagationMethod) && isObject(pw.propagationMethod.qemuGuestAgent))) out.push(invalid(`${at}.userPassword.propagationMethod`, `${at} must have exactly one propagationMethod set`));
  return out;
}

export function validateAccessCredentials(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const f = `${field}.accessCredentials`;
  const list = (spec as { accessCredentials?: unknown }).accessCredentials;
  if (!Array.isArray(list)) return [];
  if (list.length > MAX_ACCESS_CREDENTIALS) return [invalid(f, `${f} list exceeds the ${MAX_ACCESS_CREDENTIALS} element limit in length`)];
  const out: Cause[] = [];
  for (const [cred, i] of objectsAt(list)) {
    const at = `${f}[${i}]`;
    let types = 0;
    if (isObject(cred.sshPublicKey)) { types++; out.push(...checkSshKey(spec, at, cred.sshPublicKey)); }
    if (isObject(cred.userPassword)) { types++; out.push(...checkPassword(at, cred.userPassword)); }
    if (types !== 1) out.push(invalid(at, `${at} must have exactly one access credential type set`));
  }
  return out;
}
