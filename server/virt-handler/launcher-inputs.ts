/**
 * What a VMI names but does not hold, read through the API before its launcher starts (and on a
 * migration target): cloud-init user/network data from Secrets (`secretRef`,
 * `networkDataSecretRef`), the SSH keys of accessCredentials propagated through cloud-init, and
 * the files of configMap, secret, serviceAccount and downwardAPI volumes (the launcher makes each
 * an ISO disk, as KubeVirt does).
 * Difference: KubeVirt mounts these into the launcher Pod and its launcher reads them there.
 */
import type { CoreV1Api } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import type { Volume } from '../../lib/kubevirt/vmi-spec-types';
import { unlessNotFound } from '../kube/api-errors';
import type { LauncherInputs } from '../virt-launcher/protocol';
import { keysIn } from './access-credentials';
import { downwardApiFiles } from './downward-api-files';
import { secretDataReader } from './secret-reader';

/** a Secret's or ConfigMap's data, base64 per key (absent: undefined) */
export interface InputReader {
  secret(namespace: string, name: string): Promise<Record<string, string> | undefined>;
  configMap(namespace: string, name: string): Promise<Record<string, string> | undefined>;
  /** a token for the ServiceAccount, and the cluster's CA (kube-root-ca.crt) */
  serviceAccountToken(namespace: string, name: string): Promise<{ token: string; caCrt?: string }>;
}

/** raised when a non-optional source is missing: the launcher is not started until it exists */
export class MissingInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingInputError';
  }
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

/** KubeVirt reads `userdata` or `userData` (and `networkdata` / `networkData`) from the Secret */
export function cloudInitFromSecret(data: Record<string, string>, which: 'user' | 'network'): string | undefined {
  const value = which === 'user' ? data.userdata ?? data.userData : data.networkdata ?? data.networkData;
  return value === undefined ? undefined : text(value);
}

/**
 * Whether resolving this VMI's launcher inputs reads the API (a Secret, a ConfigMap, a TokenRequest).
 * Without such a read the inputs cost nothing to build, so the handler need not first ask the
 * launcher whether it already runs the domain before its first `sync`.
 */
export function inputsReadTheApi(vmi: VirtualMachineInstance): boolean {
  const volumeReads = (vmi.spec.volumes ?? []).some((vol) => {
    const ci = vol.cloudInitNoCloud ?? vol.cloudInitConfigDrive;
    return Boolean(ci?.secretRef?.name || ci?.networkDataSecretRef?.name || vol.configMap || vol.secret || vol.serviceAccount);
  });
  const creds = (vmi.spec as { accessCredentials?: SshCredential[] }).accessCredentials ?? [];
  return volumeReads || creds.some((c) => {
    const method = c.sshPublicKey?.propagationMethod;
    return Boolean((method?.noCloud || method?.configDrive) && c.sshPublicKey?.source?.secret?.secretName);
  });
}

export async function resolveLauncherInputs(vmi: VirtualMachineInstance, read: InputReader): Promise<LauncherInputs> {
  const ns = vmi.metadata.namespace ?? 'default';
  const inputs: LauncherInputs = {};
  for (const vol of vmi.spec.volumes ?? []) {
    const ci = vol.cloudInitNoCloud ?? vol.cloudInitConfigDrive;
    if (ci?.secretRef || ci?.networkDataSecretRef) (inputs.cloudInit ??= {})[vol.name] = await cloudInitSecrets(ns, vol.name, ci, read);
    const files = await configVolumeFiles(vmi, vol, read);
    if (files) (inputs.configVolumes ??= {})[vol.name] = files;
  }
  const keys = await cloudInitKeys(vmi, read);
  if (keys) inputs.sshPublicKeys = keys;
  return inputs;
}

async function cloudInitSecrets(ns: string, volume: string, ci: NonNullable<Volume['cloudInitNoCloud']>, read: InputReader): Promise<{ userData?: string; networkData?: string }> {
  const out: { userData?: string; networkData?: string } = {};
  for (const [which, ref] of [['user', ci.secretRef], ['network', ci.networkDataSecretRef]] as const) {
    if (!ref?.name) continue;
    const data = await read.secret(ns, ref.name);
    if (!data) throw new MissingInputError(`secret "${ref.name}" of cloud-init volume ${volume} not found`);
    const value = cloudInitFromSecret(data, which);
    if (value === undefined) throw new MissingInputError(`no cloud-init data-source found at volume: ${volume} (secret "${ref.name}" has no ${which}data key)`);
    out[which === 'user' ? 'userData' : 'networkData'] = value;
  }
  return out;
}

async function configVolumeFiles(vmi: VirtualMachineInstance, vol: Volume, read: InputReader): Promise<Record<string, string> | undefined> {
  const ns = vmi.metadata.namespace ?? 'default';
  if (vol.configMap) {
    const data = await read.configMap(ns, vol.configMap.name);
    if (!data && !vol.configMap.optional) throw new MissingInputError(`configmap "${vol.configMap.name}" of volume ${vol.name} not found`);
    return data ?? {};
  }
  if (vol.secret) {
    const data = await read.secret(ns, vol.secret.secretName);
    if (!data && !vol.secret.optional) throw new MissingInputError(`secret "${vol.secret.secretName}" of volume ${vol.name} not found`);
    return data ?? {};
  }
  if (vol.serviceAccount) {
    const { token, caCrt } = await read.serviceAccountToken(ns, vol.serviceAccount.serviceAccountName);
    return { token: b64(token), namespace: b64(ns), ...(caCrt ? { 'ca.crt': b64(caCrt) } : {}) };
  }
  if (vol.downwardAPI) {
    return Object.fromEntries(Object.entries(downwardApiFiles(vmi, vol.downwardAPI.fields ?? [])).map(([k, v]) => [k, b64(v)]));
  }
  return undefined;
}

interface SshCredential { sshPublicKey?: { source?: { secret?: { secretName?: string } }; propagationMethod?: { noCloud?: object; configDrive?: object } } }

/** accessCredentials through cloud-init: the keys in every value of each named Secret, in key order (one per line, as for the agent) */
async function cloudInitKeys(vmi: VirtualMachineInstance, read: InputReader): Promise<LauncherInputs['sshPublicKeys']> {
  const out: NonNullable<LauncherInputs['sshPublicKeys']> = {};
  const creds = ((vmi.spec as { accessCredentials?: SshCredential[] }).accessCredentials ?? []);
  for (const c of creds) {
    const method = c.sshPublicKey?.propagationMethod;
    const kind = method?.noCloud ? 'noCloud' : method?.configDrive ? 'configDrive' : undefined;
    const secretName = c.sshPublicKey?.source?.secret?.secretName;
    if (!kind || !secretName) continue;
    const data = await read.secret(vmi.metadata.namespace ?? 'default', secretName);
    if (!data) throw new MissingInputError(`secret "${secretName}" of accessCredentials not found`);
    const keys = Object.keys(data).sort().flatMap((k) => keysIn(text(data[k])));
    (out[kind] ??= []).push(...keys);
  }
  return out.noCloud || out.configDrive ? out : undefined;
}

/** The reader over the API (`get` on secrets and configmaps, `create` on serviceaccounts/token). */
export function apiInputReader(core: CoreV1Api): InputReader {
  return {
    secret: secretDataReader(core),
    async configMap(namespace, name) {
      const c = await unlessNotFound(core.readNamespacedConfigMap({ namespace, name }));
      if (!c) return undefined;
      return { ...Object.fromEntries(Object.entries(c.data ?? {}).map(([k, v]) => [k, b64(v)])), ...(c.binaryData ?? {}) };
    },
    async serviceAccountToken(namespace, name) {
      const r = await core.createNamespacedServiceAccountToken({ namespace, name, body: { spec: { audiences: [], expirationSeconds: SERVICE_ACCOUNT_TOKEN_SECONDS } } });
      const ca = await unlessNotFound(core.readNamespacedConfigMap({ namespace, name: 'kube-root-ca.crt' }));
      return { token: r.status!.token, caCrt: ca?.data?.['ca.crt'] };
    },
  };
}

/** the token a serviceAccount disk carries lasts a day (the disk is written once, at the launcher's start) */
export const SERVICE_ACCOUNT_TOKEN_SECONDS = 86_400;
