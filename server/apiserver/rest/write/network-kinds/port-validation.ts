/** NetworkPolicyPort validation (kube's ValidateNetworkPolicyPort, IsValidPortNum, IsValidPortName). */
import type { StatusCause } from '../../status-error';
import { asRecord, invalidValue, notSupported } from '../storage-kinds/field-errors';

export const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const PORT_RANGE_MSG = 'must be between 1 and 65535, inclusive';
const PORT_NAME_MAX = 15;

export function portNumberProblems(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [PORT_RANGE_MSG];
}

/** IsValidPortName: an IANA_SVC_NAME */
export function portNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length < 1 || name.length > PORT_NAME_MAX) problems.push(`must be no more than ${PORT_NAME_MAX} characters`);
  if (!/^[-a-z0-9]+$/.test(name)) problems.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) problems.push('must contain at least one letter (a-z)');
  if (name.includes('--')) problems.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) problems.push('must not begin or end with a hyphen');
  return problems;
}

function endPortCauses(port: unknown, endPort: unknown, path: string): StatusCause[] {
  if (endPort === undefined || endPort === null) return [];
  if (port === undefined || port === null) return [invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified')];
  if (typeof port !== 'number') return [invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric')];
  const end = Number(endPort);
  const causes: StatusCause[] = [];
  if (end < port) causes.push(invalidValue(`${path}.endPort`, endPort, 'must be greater than or equal to `port`'));
  causes.push(...portNumberProblems(end).map((m) => invalidValue(`${path}.endPort`, endPort, m)));
  return causes;
}

export function networkPolicyPortCauses(value: unknown, path: string): StatusCause[] {
  const p = asRecord(value);
  const causes: StatusCause[] = [];
  if (p.protocol !== undefined && p.protocol !== null && !PROTOCOLS.includes(String(p.protocol))) {
    causes.push(notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  }
  if (typeof p.port === 'number') causes.push(...portNumberProblems(p.port).map((m) => invalidValue(`${path}.port`, p.port, m)));
  else if (typeof p.port === 'string') causes.push(...portNameProblems(p.port).map((m) => invalidValue(`${path}.port`, p.port, m)));
  causes.push(...endPortCauses(p.port, p.endPort, path));
  return causes;
}
