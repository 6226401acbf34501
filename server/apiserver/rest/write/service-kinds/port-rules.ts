/** kube's checks of a Service's ports (validateServicePort and the duplicate checks of ValidateService). */
import type { StatusCause } from '../../status-error';
import { invalidValue, notSupported, required } from '../storage-kinds/field-errors';
import { goServicePortKey } from './go-values';
import { PROTOCOLS, type ServicePort } from './service-fields';

export const PORT_RANGE_MSG = 'must be between 1 and 65535, inclusive';
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const PORT_NAME_CHARS = /^[-a-z0-9]+$/;

const isPortNum = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535;

/** IsValidPortName: an IANA_SVC_NAME, the messages kube gives for each broken rule */
export function portNameProblems(name: string): string[] {
  const out: string[] = [];
  if (name.length < 1 || name.length > 15) out.push('must be no more than 15 characters');
  if (!PORT_NAME_CHARS.test(name)) out.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (name.includes('--')) out.push("must not contain consecutive hyphens");
  if (!/[a-z]/.test(name)) out.push("must contain at least one letter (a-z)");
  if (name.startsWith('-') || name.endsWith('-')) out.push("must not begin or end with a hyphen");
  return out;
}

function nameCauses(p: ServicePort, path: string, requireName: boolean): StatusCause[] {
  if (p.name === undefined || p.name === '') return requireName ? [required(`${path}.name`)] : [];
  if (typeof p.name !== 'string' || !DNS1123_LABEL.test(p.name)) return [invalidValue(`${path}.name`, p.name, DNS1123_LABEL_MSG)];
  return [];
}

function targetPortCauses(p: ServicePort, path: string): StatusCause[] {
  const t = p.targetPort;
  if (t === undefined || t === 0) return [];
  if (typeof t === 'string') return portNameProblems(t).map((m) => invalidValue(`${path}.targetPort`, t, m));
  return isPortNum(t) ? [] : [invalidValue(`${path}.targetPort`, t, PORT_RANGE_MSG)];
}

/** validateServicePort: name, port, protocol, targetPort (nodePort ranges are the allocator's) */
export function portCauses(p: ServicePort, path: string, requireName: boolean): StatusCause[] {
  const causes = nameCauses(p, path, requireName);
  if (!isPortNum(p.port)) causes.push(invalidValue(`${path}.port`, p.port ?? 0, PORT_RANGE_MSG));
  if (p.protocol === undefined || p.protocol === '') causes.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(p.protocol as never)) causes.push(notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  causes.push(...targetPortCauses(p, path));
  if (p.nodePort !== undefined && p.nodePort !== 0 && !isPortNum(p.nodePort)) causes.push(invalidValue(`${path}.nodePort`, p.nodePort, PORT_RANGE_MSG));
  return causes;
}

/** two ports with one name, or one port+protocol twice */
export function duplicatePortCauses(ports: ServicePort[]): StatusCause[] {
  const names = new Set<unknown>();
  const keys = new Set<string>();
  const causes: StatusCause[] = [];
  ports.forEach((p, i) => {
    if (typeof p.name === 'string' && p.name) {
      if (names.has(p.name)) causes.push({ reason: 'FieldValueDuplicate', field: `spec.ports[${i}].name`, message: `Duplicate value: ${JSON.stringify(p.name)}` });
      names.add(p.name);
    }
    const key = `${String(p.protocol)}/${String(p.port)}`;
    if (keys.has(key) && typeof p.port === 'number') {
      causes.push({ reason: 'FieldValueDuplicate', field: `spec.ports[${i}]`, message: `Duplicate value: ${goServicePortKey(String(p.protocol), p.port)}` });
    }
    keys.add(key);
  });
  return causes;
}
