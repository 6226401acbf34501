/** VMI-level options: eviction/start strategy, hostname, DNS, probes, input devices, architecture. */
import { invalid, type Cause } from '../cause';
import { isObject, objectAt, objectsAt, stringAt } from '../json-shape';
import { dns1123LabelErrors } from './disks-validator';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

const EVICTION_STRATEGIES = ['None', 'LiveMigrate', 'LiveMigrateIfPossible', 'External'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const MAX_NAMESERVERS = 3;
const PROBE_HANDLERS = ['httpGet', 'tcpSocket', 'exec', 'guestAgentPing'];
const ARCHITECTURES = ['amd64', 'arm64', 's390x'];
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function subdomainErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN_RE.test(v)) {
    errs.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return errs;
}

function validateStrategies(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const out: Cause[] = [];
  const es = spec.evictionStrategy as unknown;
  if (typeof es === 'string' && !EVICTION_STRATEGIES.includes(es)) {
    out.push(invalid(`${field}.evictionStrategy`, `${field}.evictionStrategy is set with an unrecognized option: ${es}`));
  }
  const ss = spec.startStrategy as unknown;
  if (typeof ss === 'string' && ss !== 'Paused') {
    out.push(invalid(`${field}.startStrategy`, `${field}.startStrategy is set with an unrecognized option: ${ss}`));
  }
  if (ss === 'Paused' && isObject(spec.livenessProbe)) {
    out.push(invalid(`${field}.startStrategy`, `either ${field}.startStrategy or ${field}.livenessProbe should be provided.Pausing VMI with LivenessProbe is not supported`));
  }
  return out;
}

function validateNames(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const out: Cause[] = [];
  const hostname = stringAt(spec.hostname);
  const hErrs = hostname ? dns1123LabelErrors(hostname) : [];
  if (hErrs.length) out.push(invalid(`${field}.hostname`, `${field}.hostname does not conform to the kubernetes DNS_LABEL rules : ${hErrs.join(', ')}`));
  const sub = stringAt(spec.subdomain);
  const sErrs = sub ? subdomainErrors(sub) : [];
  if (sErrs.length) out.push(invalid(`${field}.subdomain`, `${field}.subdomain does not conform to the kubernetes DNS_SUBDOMAIN rules : ${sErrs.join(', ')}`));
  return out;
}

function validateDNS(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const out: Cause[] = [];
  const policy = stringAt(spec.dnsPolicy);
  if (policy && !DNS_POLICIES.includes(policy)) {
    out.push(invalid(`${field}.dnsPolicy`, `DNSPolicy: ${policy} is not supported, valid values: [${DNS_POLICIES.join(' ')}]`));
  }
  const cfg = spec.dnsConfig;
  if (policy === 'None' && !isObject(cfg)) out.push(invalid(`${field}.dnsConfig`, 'must provide `dnsConfig` when `dnsPolicy` is None'));
  const ns = objectAt(cfg).nameservers;
  if (Array.isArray(ns) && ns.length > MAX_NAMESERVERS) {
    out.push(invalid(`${field}.dnsConfig.nameservers`, `must not have more than ${MAX_NAMESERVERS} nameservers: ${JSON.stringify(ns).slice(0, 200)}`));
  }
  if (policy === 'None' && isObject(cfg) && (!Array.isArray(ns) || ns.length === 0)) {
    out.push(invalid(`${field}.dnsConfig.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None'));
  }
  return out;
}

function validateProbes(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const out: Cause[] = [];
  const hasPodNetwork = objectsAt(spec.networks).some(([n]) => isObject(n.pod));
  for (const key of ['readinessProbe', 'livenessProbe'] as const) {
    const p = spec[key] as unknown;
    if (!isObject(p)) continue;
    const f = `${field}.${key}`;
    const handlers = PROBE_HANDLERS.filter((h) => p[h] !== undefined && p[h] !== null);
    if (handlers.length !== 1) out.push(invalid(f, `${f} must have exactly one probe type set`));
    const needsNet = handlers.some((h) => h === 'httpGet' || h === 'tcpSocket');
    if (needsNet && !hasPodNetwork) out.push(invalid(f, `${f} is only allowed if the Pod Network is attached`));
  }
  return out;
}

function validateInputs(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const out: Cause[] = [];
  for (const [input, i] of objectsAt(spec.domain?.devices?.inputs)) {
    const f = `${field}.domain.devices.inputs[${i}]`;
    const bus = stringAt(input.bus);
    if (bus && bus !== 'virtio' && bus !== 'usb') out.push(invalid(`${f}.bus`, 'Input device can have only virtio or usb bus.'));
    if (input.type !== 'tablet') out.push(invalid(`${f}.type`, 'Input device can have only tablet type.'));
  }
  return out;
}

export function validateOptions(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const out = [
    ...validateStrategies(spec, field), ...validateNames(spec, field), ...validateDNS(spec, field),
    ...validateProbes(spec, field), ...validateInputs(spec, field),
  ];
  const arch = stringAt(spec.architecture);
  if (arch && !ARCHITECTURES.includes(arch)) out.push(invalid(`${field}.architecture`, `unsupported architecture: ${arch}`));
  return out;
}
