/**
 * The source side of a migration (KubeVirt's migration-source.go + the launcher's monitor): once
 * the target published its address, run `migrate` on the source launcher with the policy's
 * parameters, follow its progress events (published on the VMIM at least every second), cancel on
 * abort request or timeout, and report the outcome in the VMI's migrationState. The outcome is
 * kept in memory and written by the next sync, so a conflicting write is simply retried.
 */
import type { VirtualMachineInstance, VMIMigrationState } from '../../../lib/kubevirt';
import { EventTypeNormal, EventTypeWarning } from '../../kube/events';
import { log } from '../../log';
import type { MigrationInfo } from '../../virt-launcher/protocol';
import type { LauncherClient } from '../../virt-launcher/launcher-client';
import { patchMigrationState, writeProgress } from './migration-patch';
import { decideConvergence, migratedBytes, toMigrationParams, toMigrationProgress, type MonitorState, type ResolvedConfig } from './migration-progress';
import { BLOCK_MIGRATION_PORT, DIRECT_MIGRATION_PORT, type MigrationDeps } from './migration-target';
import { MIRROR_READY_TIMEOUT_MS, POSTCOPY_FAILED_MESSAGE } from '../../virt-launcher/protocol';
import { podDirOf, podUIDOnNode, readTermination } from '../pod-dir';

const FINAL = new Set(['completed', 'failed', 'cancelled']);
const PROGRESS_EVERY_MS = 500;
const CANCELED = 'Migration failed due to being canceled';
const MIGRATED_REASON = 'Migrated';
const POST_COPY = 'PostCopy';
const STOPPED_STATES = new Set(['shutoff', 'crashed']);
/** QEMU's post-copy states: postcopy-active, -paused, -recover */
const POSTCOPY_PREFIX = 'postcopy-';
/** `migrate` returns once the disks are copied (when there are some) and the memory stream started. */
const MIGRATE_REQUEST_TIMEOUT_MS = MIRROR_READY_TIMEOUT_MS + 10_000;

/** The target's port for a role (targetDirectMigrationNodePorts maps port → role, as KubeVirt). */
function portFor(state: VMIMigrationState, role: number): number | undefined {
  const entry = Object.entries(state.targetDirectMigrationNodePorts ?? {}).find(([, r]) => r === role);
  return entry ? Number(entry[0]) : undefined;
}

interface Monitor {
  uid: string;
  client: LauncherClient;
  timing: MonitorState;
  config?: ResolvedConfig;
  dataBytes: number;
  lastProgressAt: number;
  cancelSent: boolean;
  /** when this handler started it (written to migrationState.startTimestamp) */
  startTimestamp: string;
  timeoutReason?: string;
  /** QEMU switched to post-copy: the guest runs on the target, neither a timeout nor an abort may stop it now */
  postCopy: boolean;
  /** the completion timeout passed and the launcher was asked to switch */
  postCopyRequested?: boolean;
  final?: MigrationInfo;
  /** progress writes, one after another: a late 'active' write never lands after the final one */
  progressWrites: Promise<void>;
  detach: () => void;
}

export interface SourceHooks {
  enqueue: (key: string) => void;
  /** The VMIM (namespace/name) with this UID, for the progress annotation. */
  findMigration: (uid: string) => { namespace: string; name: string } | undefined;
}

export class MigrationSource {
  private readonly monitors = new Map<string, Monitor>();
  private readonly log = log.child({ component: 'virt-handler-migration-source' });

  constructor(private readonly d: MigrationDeps, private readonly hooks: SourceHooks) {}

  async sync(key: string, vmi: VirtualMachineInstance, state: VMIMigrationState): Promise<void> {
    const uid = state.migrationUid!;
    if (state.completed) return this.forget(uid);
    const podUID = podUIDOnNode(vmi, this.d.node);
    if (!podUID) return;
    const podDir = podDirOf(this.d.dataDir, this.d.node, podUID);
    const client = this.d.connections.get(podDir, key).client;
    if (!state.startTimestamp) {
      const started = this.monitors.get(uid);
      if (!started) {
        if (state.abortRequested) return this.finish(vmi, { status: 'cancelled' }, true);
        if (!state.targetNodeAddress) return;
        return this.start(key, vmi, state, client);
      }
      // started here, but its startTimestamp write lost a race with another status write (guest
      // agent info, the target's): write it again on this fresher VMI — never start twice (a
      // second `migrate` fails the running one: "There's a migration process in progress")
      await patchMigrationState(this.d.clients, vmi, { startTimestamp: started.startTimestamp, mode: 'PreCopy' });
      return;
    }
    const m = this.monitors.get(uid) ?? (await this.reattach(key, vmi, state, client, podDir));
    if (!m) return;
    if (m.final) {
      await m.progressWrites; // the final figures are on the VMIM before anyone sees the migration end
      return this.finish(vmi, m.final, state.abortRequested === true, m.timeoutReason, m.postCopy);
    }
    if (m.postCopy && state.mode !== POST_COPY) {
      await patchMigrationState(this.d.clients, vmi, { mode: POST_COPY });
      return;
    }
    if (state.abortRequested && !m.cancelSent && !m.postCopy) {
      m.cancelSent = true;
      await client.request('migrateCancel');
      await patchMigrationState(this.d.clients, vmi, { abortStatus: 'Aborting' });
    }
  }

  private async start(key: string, vmi: VirtualMachineInstance, state: VMIMigrationState, client: LauncherClient): Promise<void> {
    const port = portFor(state, DIRECT_MIGRATION_PORT) ?? NaN;
    const nbdPort = portFor(state, BLOCK_MIGRATION_PORT);
    const config = state.migrationConfiguration as ResolvedConfig | undefined;
    const m = this.attach(key, vmi, state, client);
    try {
      await client.request('migrate', { host: state.targetNodeAddress!, port, nbdPort, params: toMigrationParams(config) }, { timeoutMs: MIGRATE_REQUEST_TIMEOUT_MS });
    } catch (err) {
      m.final = { status: 'failed', errorDesc: (err as Error).message };
    }
    await patchMigrationState(this.d.clients, vmi, { startTimestamp: m.startTimestamp, mode: 'PreCopy' });
    void this.d.recorder.record(vmi as never, EventTypeNormal, 'Migrating', `VirtualMachineInstance is migrating to node ${state.targetNode}.`);
  }

  /** After a handler restart: follow the running migration again, or learn how it ended. */
  private async reattach(key: string, vmi: VirtualMachineInstance, state: VMIMigrationState, client: LauncherClient, podDir: string): Promise<Monitor | undefined> {
    const m = this.attach(key, vmi, state, client);
    const info = await client.request('migrationStatus').catch(() => undefined);
    if (info && FINAL.has(info.status)) m.final = info;
    else if (!info) m.final = readTermination(podDir)?.reason === MIGRATED_REASON ? { status: 'completed' } : { status: 'failed', errorDesc: 'source virt-launcher is gone' };
    else if (info.status === 'none') m.final = { status: 'failed', errorDesc: 'the source launcher runs no migration' };
    return m;
  }

  private attach(key: string, vmi: VirtualMachineInstance, state: VMIMigrationState, client: LauncherClient): Monitor {
    const now = Date.now();
    const uid = state.migrationUid!;
    const onInfo = (info: MigrationInfo) => this.onInfo(key, m, info);
    const onDomain = (s: { state: string; reason?: string }) => {
      if (m.final) return;
      if (s.reason === MIGRATED_REASON) m.final = { status: 'completed' };
      // the source QEMU stopped mid-way (killed, crashed): the migration cannot go on; after the switch the guest is lost
      else if (STOPPED_STATES.has(s.state)) m.final = { status: 'failed', errorDesc: m.postCopy ? `${POSTCOPY_FAILED_MESSAGE}: the source domain stopped (${s.reason ?? s.state})` : `the source domain stopped (${s.reason ?? s.state})` };
      else return;
      this.hooks.enqueue(key);
    };
    const m: Monitor = {
      uid, client, timing: { startedAt: now, bestAt: now }, config: state.migrationConfiguration as ResolvedConfig | undefined,
      dataBytes: migratedBytes(vmi), lastProgressAt: 0, cancelSent: false, postCopy: state.mode === POST_COPY, progressWrites: Promise.resolve(), startTimestamp: state.startTimestamp ?? new Date(now).toISOString(),
      detach: () => { client.off('migration', onInfo); client.off('domain', onDomain); },
    };
    client.on('migration', onInfo);
    client.on('domain', onDomain);
    this.monitors.set(uid, m);
    return m;
  }

  private onInfo(key: string, m: Monitor, info: MigrationInfo): void {
    const now = Date.now();
    const final = FINAL.has(info.status);
    if (final && (!m.final || m.final.status !== info.status)) m.final = info;
    if (final || now - m.lastProgressAt >= PROGRESS_EVERY_MS) {
      m.lastProgressAt = now;
      const vmim = this.hooks.findMigration(m.uid);
      const progress = toMigrationProgress(info, new Date(now));
      if (vmim) {
        m.progressWrites = m.progressWrites
          .then(async () => { await writeProgress(this.d.clients, vmim, progress); })
          .catch((err) => this.log.debug({ err: (err as Error).message }, 'progress write failed'));
      }
    }
    if (final) return this.hooks.enqueue(key);
    if (info.status.startsWith(POSTCOPY_PREFIX)) {
      if (!m.postCopy) { m.postCopy = true; this.hooks.enqueue(key); }
      return; // KubeVirt too: no timeout in post-copy, cancelling would lose the guest
    }
    const step = decideConvergence(m.timing, info, m.config, m.dataBytes, now);
    if (step?.action === 'postcopy' && !m.postCopyRequested) {
      m.postCopyRequested = true;
      this.log.info({ migration: m.uid }, 'completion timeout reached: switching to post-copy');
      void m.client.request('migrateStartPostcopy').catch((err) => this.log.warn({ migration: m.uid, err: (err as Error).message }, 'could not switch to post-copy'));
    }
    if (step?.action === 'abort' && !m.cancelSent) {
      m.cancelSent = true;
      m.timeoutReason = step.reason;
      void m.client.request('migrateCancel').catch(() => undefined);
    }
  }

  /** Writes the outcome into the VMI's migrationState (completed, or failed with its reason). */
  private async finish(vmi: VirtualMachineInstance, info: MigrationInfo, abortRequested: boolean, timeoutReason?: string, postCopy = false): Promise<void> {
    const endTimestamp = new Date().toISOString();
    const mode = postCopy ? POST_COPY : undefined;
    if (info.status === 'completed') {
      await patchMigrationState(this.d.clients, vmi, { completed: true, endTimestamp, mode });
      return;
    }
    const aborted = abortRequested && !timeoutReason;
    const failureReason = aborted ? CANCELED : timeoutReason ?? info.errorDesc ?? `Live migration ${info.status}`;
    await patchMigrationState(this.d.clients, vmi, { completed: true, failed: true, endTimestamp, failureReason, mode, abortStatus: abortRequested && !postCopy ? 'Succeeded' : undefined });
    void this.d.recorder.record(vmi as never, aborted ? EventTypeNormal : EventTypeWarning, aborted ? 'MigrationAborted' : 'MigrationFailed', aborted ? 'Live migration aborted' : failureReason);
  }

  private forget(uid: string): void {
    const m = this.monitors.get(uid);
    if (!m) return;
    m.detach();
    this.monitors.delete(uid);
  }

  closeAll(): void {
    for (const uid of [...this.monitors.keys()]) this.forget(uid);
  }
}
