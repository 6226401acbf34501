/**
 * Talks to one VMI's launcher for a sync: start the domain (`sync`, idempotent, so a restarted
 * handler re-adopts a running guest without disturbing it), ask for a graceful shutdown when the
 * VMI is deleted, read guest-agent info now and then, and tell "not up yet" from "gone".
 */
import { connect } from 'node:net';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { DEFAULT_GRACE_PERIOD_SECONDS } from '../../lib/kubevirt';
import type { DomainStatus, GuestInfo, LauncherInputs } from '../virt-launcher/protocol';
import { LauncherError, type LauncherClient } from '../virt-launcher/launcher-client';
import { LAUNCHER_ERRORS } from '../virt-launcher/protocol';
import type { LauncherConnections } from './launcher-connections';
import { inputsReadTheApi } from './launcher-inputs';
import { isLauncherReady, podFile, readTermination } from './pod-dir';

export interface Observation {
  domain?: DomainStatus;
  guest?: GuestInfo;
  launcherGone?: { reason: string; message: string };
  syncError?: { reason: string; message: string };
  /** true when the launcher is not listening yet: poll again soon. */
  waiting?: boolean;
  /** the first shutdown request went out in this call (for the ShuttingDown event). */
  shutdownStarted?: boolean;
}

const SYNC_TIMEOUT_MS = 30_000;
const GUEST_INFO_TIMEOUT_MS = 5_000;
const GUEST_INFO_EVERY_MS = 10_000;
const guestInfoCache = new Map<string, { at: number; info?: GuestInfo; pending?: boolean }>();

/** Is anything listening on launcher.sock? (a dropped connection alone does not mean the launcher died) */
export function probeLauncher(podDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(podFile(podDir, 'launcherSocket'));
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

function gone(podDir: string): { reason: string; message: string } {
  return readTermination(podDir) ?? { reason: 'LauncherExited', message: 'virt-launcher is not running' };
}

/**
 * Guest-agent info without blocking the sync: the cached answer now, a refresh in the background
 * (a guest without an agent makes the launcher wait its agent timeout, which must not delay the
 * Running phase); `onFresh` resyncs the VMI when new info arrives.
 */
function readGuestInfo(conns: LauncherConnections, podDir: string, key: string, onFresh: () => void, portOpen?: boolean): GuestInfo | undefined {
  const cached = guestInfoCache.get(podDir);
  // the agent's port opening or closing (QEMU's VSERPORT_CHANGE) makes the cached answer stale at once
  const portChanged = portOpen !== undefined && cached?.info !== undefined && cached.info.connected !== portOpen;
  if (cached && (cached.pending || (!portChanged && Date.now() - cached.at < GUEST_INFO_EVERY_MS))) return cached.info;
  guestInfoCache.set(podDir, { at: Date.now(), info: cached?.info, pending: true });
  void conns.get(podDir, key).client.request('guestInfo', undefined, { timeoutMs: GUEST_INFO_TIMEOUT_MS }).catch(() => undefined).then((info) => {
    guestInfoCache.set(podDir, { at: Date.now(), info });
    if (JSON.stringify(info) !== JSON.stringify(cached?.info)) onFresh();
  });
  return cached?.info;
}

export function forgetGuestInfo(podDir: string): void {
  guestInfoCache.delete(podDir);
}

/**
 * Whether the launcher already runs this VMI's domain (virt-handler restarted, or reconnected):
 * then `sync` only re-attaches and the launcher ignores launcher inputs, so reading them (Secrets,
 * ConfigMaps, a fresh TokenRequest per serviceAccount disk) would be wasted API calls.
 */
async function runsDomainOf(client: LauncherClient, vmi: VirtualMachineInstance): Promise<boolean> {
  try {
    const status = await client.request('status');
    return status.vmiUID === vmi.metadata.uid;
  } catch (err) {
    if (err instanceof LauncherError && err.reason === LAUNCHER_ERRORS.notStarted) return false;
    throw err;
  }
}

export async function observeLauncher(
  conns: LauncherConnections, podDir: string, key: string, vmi: VirtualMachineInstance,
  onGuestInfo: () => void = () => undefined,
  inputsOf: (vmi: VirtualMachineInstance) => Promise<LauncherInputs> = async () => ({}),
): Promise<Observation> {
  const termination = readTermination(podDir);
  if (!isLauncherReady(podDir) && !termination) return { waiting: true };
  const entry = conns.get(podDir, key);
  const out: Observation = {};
  try {
    if (vmi.metadata.deletionTimestamp) {
      if (!entry.shutdownSent) {
        const graceSeconds = vmi.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_PERIOD_SECONDS;
        out.domain = await entry.client.request('shutdown', { graceSeconds });
        entry.shutdownSent = out.shutdownStarted = true;
      } else {
        out.domain = await entry.client.request('status');
      }
    } else if (!entry.synced) {
      // inputs that need no API read are built as cheaply as asked for: no `status` round trip first
      const inputs = inputsReadTheApi(vmi) && (await runsDomainOf(entry.client, vmi)) ? {} : await inputsOf(vmi);
      out.domain = await entry.client.request('sync', { vmi: vmi as never, inputs }, { timeoutMs: SYNC_TIMEOUT_MS });
      entry.synced = true;
    } else {
      out.domain = await entry.client.request('status');
    }
  } catch (err) {
    if (err instanceof LauncherError && err.reason === 'Disconnected') {
      if (await probeLauncher(podDir)) return { waiting: true }; // our connection dropped, the launcher did not
      return { domain: entry.lastDomain, launcherGone: gone(podDir) };
    }
    const e = err as { reason?: string; message: string };
    return { ...out, syncError: { reason: e.reason ?? 'SyncFailed', message: e.message } };
  }
  if (out.domain) entry.lastDomain = out.domain;
  if (out.domain?.state === 'running') out.guest = readGuestInfo(conns, podDir, key, onGuestInfo, out.domain.agentConnected);
  return out;
}
