/**
 * A container's environment as the kubelet builds it (pure): the Service variables kube injects
 * (enableServiceLinks; the `kubernetes` Service always), then `envFrom`, then `env` with `valueFrom`
 * (fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef) and $(VAR) expansion. A missing
 * ConfigMap/Secret or key that is not optional is kube's CreateContainerConfigError with its message.
 */
import { metadataFieldValue } from '../kube/downward-api';
import type { V1ConfigMap, V1Container, V1EnvVar, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import { parseQuantity } from '../../lib/kubevirt/quantity';

/** What the kubelet looked up for the Pod (a name mapped to undefined: not found). */
export interface EnvSources {
  configMaps: Map<string, V1ConfigMap | undefined>;
  secrets: Map<string, V1Secret | undefined>;
  /** Services whose variables the container gets (the Pod's namespace and `default/kubernetes`). */
  services: V1Service[];
  /**
   * Where the `kubernetes` Service really answers. A process node has no service proxy to carry
   * 10.96.0.1:443 to the API server, so KUBERNETES_SERVICE_HOST/PORT (and KUBERNETES_PORT_*) name it.
   */
  kubernetesEndpoint?: { host: string; port: number };
  podIP: string;
  hostIP: string;
  /** the node's allocatable cpu (cores) and memory (bytes): resourceFieldRef of a limit not set */
  nodeAllocatable?: Record<string, number>;
}

export const CONFIG_ERROR_REASON = 'CreateContainerConfigError';

export class EnvConfigError extends Error {}

/** a value of the downward API (env fieldRef and downwardAPI volume items) */
export function fieldRefValue(pod: V1Pod, path: string, ips: { podIP: string; hostIP: string }): string {
  if (path.startsWith('metadata.')) return metadataFieldValue(pod.metadata, path) ?? '';
  const fields: Record<string, string | undefined> = {
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': ips.podIP,
    'status.podIPs': ips.podIP,
    'status.hostIP': ips.hostIP,
    'status.hostIPs': ips.hostIP,
  };
  return fields[path] ?? '';
}

/** resourceFieldRef: the container's limit (else the node's allocatable) or request, divided and rounded up */
export function resourceFieldValue(pod: V1Pod, container: V1Container, ref: { resource: string; containerName?: string; divisor?: string }, nodeAllocatable: Record<string, number> = {}): string {
  const c = ref.containerName ? [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === ref.containerName) ?? container : container;
  const [kind, name] = ref.resource.split('.') as ['limits' | 'requests', string];
  const divisor = parseQuantity(ref.divisor ?? '1') || 1;
  const limit = parseQuantity(c.resources?.limits?.[name]);
  let value: number | undefined;
  if (kind === 'limits') value = limit ?? nodeAllocatable[name];
  else value = parseQuantity(c.resources?.requests?.[name]) ?? limit ?? (name === 'cpu' || name === 'memory' ? 0 : undefined);
  if (value === undefined) return '0';
  return String(Math.ceil(value / divisor - 1e-9));
}

const envName = (serviceName: string) => serviceName.toUpperCase().replace(/-/g, '_');

/** the Docker-link variables kube gives every container for one Service */
export function serviceEnv(svc: V1Service, endpoint?: { host: string; port: number }): Record<string, string> {
  const ip = endpoint?.host ?? svc.spec?.clusterIP;
  const ports = svc.spec?.ports ?? [];
  if (!ip || ip === 'None' || ports.length === 0) return {};
  const n = envName(svc.metadata?.name ?? '');
  const portOf = (p: (typeof ports)[number]) => (endpoint ? endpoint.port : p.port);
  const out: Record<string, string> = { [`${n}_SERVICE_HOST`]: ip, [`${n}_SERVICE_PORT`]: String(portOf(ports[0])) };
  for (const p of ports) if (p.name) out[`${n}_SERVICE_PORT_${envName(p.name)}`] = String(portOf(p));
  const first = ports[0];
  out[`${n}_PORT`] = `${(first.protocol ?? 'TCP').toLowerCase()}://${ip}:${portOf(first)}`;
  for (const p of ports) {
    const proto = p.protocol ?? 'TCP';
    const prefix = `${n}_PORT_${portOf(p)}_${proto}`;
    out[prefix] = `${proto.toLowerCase()}://${ip}:${portOf(p)}`;
    out[`${prefix}_PROTO`] = proto.toLowerCase();
    out[`${prefix}_PORT`] = String(portOf(p));
    out[`${prefix}_ADDR`] = ip;
  }
  return out;
}

/** kube's $(VAR) expansion: defined variables are replaced, `$$` escapes, unknown references stay. */
export function expandVars(s: string, vars: Record<string, string>): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name?: string) => {
    if (whole === '$$') return '$';
    return name !== undefined && Object.hasOwn(vars, name) ? vars[name] : whole;
  });
}

function decodeSecret(secret: V1Secret, key: string): string | undefined {
  if (secret.stringData?.[key] !== undefined) return secret.stringData[key];
  const b64 = secret.data?.[key];
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64').toString('utf8');
}

function keyRef(pod: V1Pod, src: EnvSources, e: V1EnvVar): string | undefined {
  const ns = pod.metadata?.namespace ?? 'default';
  const cmRef = e.valueFrom?.configMapKeyRef;
  if (cmRef) {
    const cm = src.configMaps.get(cmRef.name ?? '');
    const v = cm?.data?.[cmRef.key] ?? (cm?.binaryData?.[cmRef.key] !== undefined ? Buffer.from(cm.binaryData[cmRef.key], 'base64').toString('utf8') : undefined);
    if (v !== undefined || cmRef.optional) return v;
    throw new EnvConfigError(cm ? `couldn't find key ${cmRef.key} in ConfigMap ${ns}/${cmRef.name}` : `configmap "${cmRef.name}" not found`);
  }
  const sRef = e.valueFrom!.secretKeyRef!;
  const secret = src.secrets.get(sRef.name ?? '');
  const v = secret ? decodeSecret(secret, sRef.key) : undefined;
  if (v !== undefined || sRef.optional) return v;
  throw new EnvConfigError(secret ? `couldn't find key ${sRef.key} in Secret ${ns}/${sRef.name}` : `secret "${sRef.name}" not found`);
}

/** every variable of the Services the container sees; `kubernetes` from `default` always, others with enableServiceLinks */
export function serviceLinkEnv(pod: V1Pod, src: EnvSources): Record<string, string> {
  const ns = pod.metadata?.namespace ?? 'default';
  const links = pod.spec?.enableServiceLinks ?? true;
  const out: Record<string, string> = {};
  const isKubernetes = (s: V1Service) => s.metadata?.namespace === 'default' && s.metadata?.name === 'kubernetes';
  for (const s of src.services) {
    if (isKubernetes(s)) continue;
    if (links && s.metadata?.namespace === ns) Object.assign(out, serviceEnv(s));
  }
  const kube = src.services.find(isKubernetes);
  if (kube) Object.assign(out, serviceEnv(kube, src.kubernetesEndpoint));
  return out;
}

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** the container's variables on top of `base`; throws EnvConfigError with kube's message */
export function containerEnv(pod: V1Pod, container: V1Container, base: Record<string, string>, src: EnvSources): Record<string, string> {
  const out: Record<string, string> = { ...base, ...serviceLinkEnv(pod, src) };
  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    let data: Record<string, string> | undefined;
    if (from.configMapRef) {
      const cm = src.configMaps.get(from.configMapRef.name ?? '');
      if (!cm && !from.configMapRef.optional) throw new EnvConfigError(`configmap "${from.configMapRef.name}" not found`);
      data = cm?.data;
    } else if (from.secretRef) {
      const s = src.secrets.get(from.secretRef.name ?? '');
      if (!s && !from.secretRef.optional) throw new EnvConfigError(`secret "${from.secretRef.name}" not found`);
      data = s ? Object.fromEntries(Object.keys({ ...s.data, ...s.stringData }).map((k) => [k, decodeSecret(s, k)!])) : undefined;
    }
    for (const [k, v] of Object.entries(data ?? {})) if (ENV_NAME.test(prefix + k)) out[prefix + k] = v;
  }
  const ips = { podIP: src.podIP, hostIP: src.hostIP };
  for (const e of container.env ?? []) {
    const vf = e.valueFrom;
    if (vf?.fieldRef) out[e.name] = fieldRefValue(pod, vf.fieldRef.fieldPath, ips);
    else if (vf?.resourceFieldRef) out[e.name] = resourceFieldValue(pod, container, vf.resourceFieldRef as { resource: string; containerName?: string; divisor?: string }, src.nodeAllocatable);
    else if (vf?.configMapKeyRef || vf?.secretKeyRef) {
      const v = keyRef(pod, src, e);
      if (v !== undefined) out[e.name] = v;
    } else out[e.name] = expandVars(e.value ?? '', out);
  }
  return out;
}

/** the ConfigMaps and Secrets the Pod's env, envFrom and volumes name (what the kubelet must fetch) */
export function referencedObjects(pod: V1Pod): { configMaps: Set<string>; secrets: Set<string> } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const e of c.env ?? []) {
      if (e.valueFrom?.configMapKeyRef?.name) configMaps.add(e.valueFrom.configMapKeyRef.name);
      if (e.valueFrom?.secretKeyRef?.name) secrets.add(e.valueFrom.secretKeyRef.name);
    }
    for (const f of c.envFrom ?? []) {
      if (f.configMapRef?.name) configMaps.add(f.configMapRef.name);
      if (f.secretRef?.name) secrets.add(f.secretRef.name);
    }
  }
  for (const v of pod.spec?.volumes ?? []) {
    if (v.configMap?.name) configMaps.add(v.configMap.name);
    if (v.secret?.secretName) secrets.add(v.secret.secretName);
    for (const s of v.projected?.sources ?? []) {
      if (s.configMap?.name) configMaps.add(s.configMap.name);
      if (s.secret?.name) secrets.add(s.secret.name);
    }
  }
  return { configMaps, secrets };
}
