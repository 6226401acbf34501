/**
 * KubeVirt's accessCredentials propagated by the guest agent (`propagationMethod.qemuGuestAgent`):
 * SSH public keys from a Secret become the listed users' authorized_keys, user passwords from a
 * Secret (key = user, value = password) are set, and the VMI's AccessCredentialsSynchronized
 * condition says whether that worked. Re-applied when the Secret's content changes (checked every
 * REFRESH_MS while the guest runs) and after the agent (re)connects. Never blocks a sync: the
 * answer of the last attempt now, the next one in the background.
 * Difference: KubeVirt's launcher reads the Secrets mounted into its Pod; here virt-handler reads
 * them through the API and hands the launcher only the keys.
 */
import { createHash } from 'node:crypto';
import type { CoreV1Api } from '@kubernetes/client-node';
import type { Condition as VMICondition, VirtualMachineInstance } from '../../lib/kubevirt';
import { Condition } from './constants';
import { messageOf } from '../kube/api-errors';
import type { AccessCredentials } from '../virt-launcher/protocol';
import { decodeSecretData, secretDataReader } from './secret-reader';

export type CredentialCondition = Omit<VMICondition, 'lastTransitionTime'>;
export const SYNC_SUCCESS = 'AccessCredentialsSyncSuccess';
export const SYNC_FAILED = 'AccessCredentialsSyncFailed';
const REFRESH_MS = 10_000;

interface SecretSource { source?: { secret?: { secretName?: string } } }
interface AccessCredential {
  sshPublicKey?: SecretSource & { propagationMethod?: { qemuGuestAgent?: { users?: string[] }; noCloud?: object; configDrive?: object } };
  userPassword?: SecretSource & { propagationMethod?: { qemuGuestAgent?: Record<string, never> } };
}

/** The credentials the agent propagates (cloud-init ones go into the cloud-init media at boot: launcher-inputs.ts). */
export function agentCredentials(vmi: VirtualMachineInstance): AccessCredential[] {
  const all = ((vmi.spec as { accessCredentials?: AccessCredential[] }).accessCredentials ?? []);
  return all.filter((c) => c.sshPublicKey?.propagationMethod?.qemuGuestAgent || c.userPassword?.propagationMethod?.qemuGuestAgent);
}

/** Public keys in a Secret value: one per line, comments and blank lines skipped. */
export function keysIn(value: string): string[] {
  return value.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
}

type ReadSecret = (namespace: string, name: string) => Promise<Record<string, string>>;

/** What to hand the agent, read from the Secrets (a missing Secret throws the API's message). */
export async function resolveCredentials(vmi: VirtualMachineInstance, readSecret: ReadSecret): Promise<AccessCredentials> {
  const namespace = vmi.metadata.namespace ?? 'default';
  const byUser = new Map<string, string[]>();
  const passwords: { user: string; password: string }[] = [];
  for (const c of agentCredentials(vmi)) {
    if (c.sshPublicKey?.propagationMethod?.qemuGuestAgent) {
      const data = await readSecret(namespace, c.sshPublicKey.source?.secret?.secretName ?? '');
      const keys = Object.keys(data).sort().flatMap((k) => keysIn(data[k]));
      for (const user of c.sshPublicKey.propagationMethod.qemuGuestAgent.users ?? []) byUser.set(user, [...(byUser.get(user) ?? []), ...keys]);
    }
    if (c.userPassword?.propagationMethod?.qemuGuestAgent) {
      const data = await readSecret(namespace, c.userPassword.source?.secret?.secretName ?? '');
      for (const user of Object.keys(data).sort()) passwords.push({ user, password: data[user] });
    }
  }
  return { authorizedKeys: [...byUser].map(([user, keys]) => ({ user, keys: [...new Set(keys)] })), passwords };
}

/** Secrets as text; a missing one throws kube's not-found message, which the condition then carries. */
export function secretReader(core: CoreV1Api): ReadSecret {
  const read = secretDataReader(core);
  return async (namespace, name) => {
    const data = await read(namespace, name);
    if (!data) throw new Error(`secrets "${name}" not found`);
    return decodeSecretData(data);
  };
}

interface State { hash?: string; condition?: CredentialCondition; at: number; pending: boolean; connected: boolean }

export class AccessCredentialSync {
  private readonly state = new Map<string, State>();

  constructor(
    private readonly readSecret: ReadSecret,
    private readonly apply: (podDir: string, key: string, creds: AccessCredentials) => Promise<void>,
    private readonly onChange: (key: string) => void,
  ) {}

  /** The condition to report now; starts an attempt when one is due. */
  observe(vmi: VirtualMachineInstance, podDir: string, key: string, agentConnected: boolean): CredentialCondition | undefined {
    if (agentCredentials(vmi).length === 0) return undefined;
    const st = this.state.get(podDir) ?? { at: 0, pending: false, connected: false };
    this.state.set(podDir, st);
    const reconnected = agentConnected && !st.connected;
    st.connected = agentConnected;
    if (!agentConnected || st.pending) return st.condition;
    if (reconnected) st.hash = undefined; // a restarted agent or guest: apply again
    if (Date.now() - st.at >= REFRESH_MS || st.hash === undefined) void this.attempt(vmi, podDir, key, st);
    return st.condition;
  }

  forget(podDir: string): void {
    this.state.delete(podDir);
  }

  private async attempt(vmi: VirtualMachineInstance, podDir: string, key: string, st: State): Promise<void> {
    st.pending = true;
    st.at = Date.now();
    const before = JSON.stringify(st.condition);
    try {
      const creds = await resolveCredentials(vmi, this.readSecret);
      const hash = createHash('sha256').update(JSON.stringify(creds)).digest('hex');
      if (hash !== st.hash) {
        await this.apply(podDir, key, creds);
        st.hash = hash;
      }
      st.condition = { type: Condition.AccessCredentialsSynchronized, status: 'True', reason: SYNC_SUCCESS };
    } catch (err) {
      st.hash = undefined;
      st.condition = { type: Condition.AccessCredentialsSynchronized, status: 'False', reason: SYNC_FAILED, message: messageOf(err) };
    } finally {
      st.pending = false;
    }
    if (JSON.stringify(st.condition) !== before) this.onChange(key);
  }
}
