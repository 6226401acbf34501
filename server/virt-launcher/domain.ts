/**
 * One QEMU domain: the process, its QMP connection and its state, tracked from QMP events
 * (STOP/RESUME/SHUTDOWN/VSERPORT_CHANGE/MIGRATION). Lifecycle verbs (pause, unpause,
 * shutdown with grace, kill, reset) act through QMP or signals; every state change is
 * emitted as a DomainStatus.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { log } from '../log';
import { DOMAIN_REASONS, POD_FILES, type DomainState, type DomainStatus } from './protocol';
import { QmpClient, type QmpEvent } from './qmp-client';
import { describeExit, spawnQemu, type QemuExit, type QemuProcess } from './qemu-process';
import { GUEST_AGENT_PORT_ID } from './converter/qemu-args-devices';
import type { HugetlbfsMount } from './hugetlbfs';
import type { NetDeviceNodes } from './qemu-net-devices';
import type { Reveal } from './qemu-secrets';

const QMP_CONNECT_TIMEOUT_MS = 15_000;
/**
 * After QEMU exits, how long the QMP socket is read to its end before the exit is judged: the events
 * QEMU wrote just before dying (a target's switch to post-copy) must count, and the process exit can
 * reach us before them.
 */
const QMP_DRAIN_MS = 500;
const ACPI_RESEND_MS = 5_000;

export interface DomainStartOptions {
  binary: string;
  args: string[];
  startPaused: boolean;
  incoming: boolean;
  /** runs once QEMU is up and before the guest does (the serial log connects here, so it misses no byte) */
  beforeRun?: () => Promise<void>;
  /** Paths QEMU must not see (qemu-secrets.ts). */
  hidePaths?: string[];
  /** hugetlbfs mounts QEMU's mount namespace makes (hugetlbfs.ts). */
  hugetlbfs?: HugetlbfsMount[];
  /** setpriv's options for QEMU's user (qemu-user.ts) */
  userArgs?: string[];
  /** the data dir made reachable above a closed dir (qemu-ownership.ts) */
  reveal?: Reveal;
  /** /dev/net nodes QEMU's namespace makes for a QEMU that dropped root (qemu-net-devices.ts) */
  netNodes?: NetDeviceNodes;
}

export interface DomainExit { status: DomainStatus; qemu: QemuExit }

export interface DomainEvents { status: [DomainStatus]; qmpEvent: [QmpEvent]; exit: [DomainExit] }

export class Domain extends EventEmitter<DomainEvents> {
  status: DomainStatus;
  qmp?: QmpClient;
  private qemu?: QemuProcess;
  private destroyRequested = false;
  /** why the launcher stopped QEMU itself (the domain ends crashed with this reason) */
  private failure?: { reason: string; message: string };
  private rebootRequested = false;
  private shutdownTimers: NodeJS.Timeout[] = [];
  private logger;
  /** bumped on every state change, so a late query-status cannot overwrite a newer state. */
  private epoch = 0;

  constructor(readonly podDir: string, base: Omit<DomainStatus, 'state'>) {
    super();
    this.status = { ...base, state: 'starting' };
    this.logger = log.child({ component: 'virt-launcher', vmiUID: base.vmiUID });
  }

  get running(): boolean { return this.qemu !== undefined && !this.exited; }
  private exited = false;
  /** resolves once QEMU's exit is reflected in the status (after the QMP drain) */
  private exitJudged: Promise<void> = Promise.resolve();
  private crashMeaning?: { reason: string; message: string };

  /** Spawns QEMU, connects QMP and continues the guest unless it should start paused / is incoming. */
  async start(opts: DomainStartOptions): Promise<void> {
    this.qemu = spawnQemu({ binary: opts.binary, args: opts.args, podDir: this.podDir, hidePaths: opts.hidePaths, hugetlbfs: opts.hugetlbfs, userArgs: opts.userArgs, reveal: opts.reveal, netNodes: opts.netNodes });
    this.update({ qemuPid: this.qemu.pid, startedAt: new Date().toISOString() });
    this.exitJudged = this.qemu.exited.then((e) => this.onExit(e));
    const qmp = await QmpClient.connect(join(this.podDir, POD_FILES.qmpSocket), { timeoutMs: QMP_CONNECT_TIMEOUT_MS });
    this.qmp = qmp;
    qmp.on('event', (e) => this.onQmpEvent(e));
    await qmp.execute('migrate-set-capabilities', { capabilities: [{ capability: 'events', state: true }] });
    await qmp.execute('qom-set', { path: '/machine/peripheral/balloon0', property: 'guest-stats-polling-interval', value: 10 }).catch(() => undefined);
    await opts.beforeRun?.();
    if (opts.incoming) this.update({ state: 'incoming', reason: undefined });
    else if (opts.startPaused) this.update({ state: 'paused', reason: DOMAIN_REASONS.startPaused });
    else await qmp.execute('cont');
  }

  async pause(): Promise<void> {
    await this.requireQmp().execute('stop');
    this.update({ state: 'paused', reason: DOMAIN_REASONS.pausedByUser });
  }

  async unpause(): Promise<void> {
    await this.requireQmp().execute('cont');
    this.update({ state: 'running', reason: undefined });
  }

  async reset(): Promise<void> {
    await this.requireQmp().execute('system_reset');
  }

  /** ACPI power button, re-sent every 5 s; QEMU killed once `graceSeconds` passed since the first call. */
  async shutdown(graceSeconds: number): Promise<void> {
    if (!this.running) return;
    if (graceSeconds <= 0) return this.kill();
    if (this.status.acpiAttempted) return; // grace counts from the first signal
    this.update({ acpiAttempted: true });
    const press = () => this.qmp?.execute('system_powerdown').catch(() => undefined);
    await press();
    this.shutdownTimers.push(setInterval(press, ACPI_RESEND_MS), setTimeout(() => void this.kill(), graceSeconds * 1000));
  }

  /** SIGKILL; the domain ends as shutoff/Destroyed. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.destroyRequested = true;
    this.qemu!.proc.kill('SIGKILL');
    await this.exitJudged;
  }

  /** SIGKILL because the guest cannot go on (a broken post-copy migration); ends crashed with `reason`. */
  async fail(reason: string, message: string): Promise<void> {
    if (!this.running) return;
    this.failure ??= { reason, message };
    this.qemu!.proc.kill('SIGKILL');
    await this.exitJudged;
  }

  /**
   * What an unexpected QEMU exit means from now on (undefined: a crash). A post-copy target whose
   * source died may exit by itself ("load of migration failed") before the launcher stops it: that
   * guest is lost the same way.
   */
  setCrashMeaning(meaning: { reason: string; message: string } | undefined): void {
    this.crashMeaning = meaning;
  }

  /** Asks QEMU to exit (used after a guest poweroff or a completed outgoing migration). */
  async quit(): Promise<void> {
    await this.qmp?.execute('quit').catch(() => undefined);
  }

  /** A guest poweroff is turned into a reset + cont (soft reboot without a guest agent). */
  requestRebootOnShutdown(): void { this.rebootRequested = true; }

  update(patch: Partial<DomainStatus>): void {
    const next = { ...this.status, ...patch };
    for (const k of Object.keys(patch) as (keyof DomainStatus)[]) if (patch[k] === undefined) delete next[k];
    if (JSON.stringify(next) === JSON.stringify(this.status)) return;
    if (next.state !== this.status.state) this.epoch++;
    this.status = next;
    this.emit('status', next);
  }

  setState(state: DomainState, reason?: string): void { this.update({ state, reason }); }

  requireQmp(): QmpClient {
    if (!this.qmp || this.qmp.closed) throw new Error('domain is not running');
    return this.qmp;
  }

  private onQmpEvent(e: QmpEvent): void {
    this.emit('qmpEvent', e);
    switch (e.event) {
      case 'STOP': void this.onStop(); break;
      case 'RESUME': if (this.status.state !== 'migrating') this.update({ state: 'running', reason: undefined }); break;
      case 'SHUTDOWN': void this.onShutdown(e); break;
      case 'VSERPORT_CHANGE': if (e.data?.id === GUEST_AGENT_PORT_ID) this.update({ agentConnected: e.data.open === true }); break;
      case 'GUEST_PANICKED': this.update({ state: 'crashed', reason: DOMAIN_REASONS.panicked }); break;
      case 'WATCHDOG': this.onWatchdog(String(e.data?.action)); break;
    }
  }

  /** The guest's watchdog expired: QEMU resets, powers down or (poweroff) exits 0 right after this event. */
  private onWatchdog(action: string): void {
    this.logger.warn({ action }, 'guest watchdog expired');
    if (action === 'poweroff') this.crashMeaning ??= { reason: DOMAIN_REASONS.crashed, message: `the guest's watchdog expired (action ${action})` };
  }

  private async onStop(): Promise<void> {
    const epoch = this.epoch;
    const st = await this.qmp?.execute<{ status: string }>('query-status').catch(() => undefined);
    if (!st || epoch !== this.epoch || this.status.state === 'shutdown' || this.status.state === 'migrating' || this.status.state === 'incoming') return;
    if (st.status === 'io-error') this.update({ state: 'paused', reason: DOMAIN_REASONS.pausedIOError });
    else if (st.status === 'paused' && this.status.state !== 'paused') this.update({ state: 'paused', reason: DOMAIN_REASONS.pausedByUser });
  }

  private async onShutdown(e: QmpEvent): Promise<void> {
    if (e.data?.guest !== true) return; // host-initiated: quit/kill paths handle it
    if (this.rebootRequested) {
      this.rebootRequested = false;
      await this.qmp?.execute('system_reset').catch(() => undefined);
      await this.qmp?.execute('cont').catch(() => undefined);
      return;
    }
    this.update({ state: 'shutdown', reason: DOMAIN_REASONS.shutdown });
    await this.quit();
  }

  private async onExit(e: QemuExit): Promise<void> {
    this.exited = true;
    for (const t of this.shutdownTimers) clearTimeout(t);
    await drainQmp(this.qmp);
    this.qmp?.close();
    let patch: Partial<DomainStatus>;
    if (this.failure) patch = { state: 'crashed', ...this.failure };
    else if (this.status.state === 'migrated') patch = { state: 'shutoff', reason: DOMAIN_REASONS.migrated };
    else if (this.status.reason === DOMAIN_REASONS.shutdown) patch = { state: 'shutoff', reason: DOMAIN_REASONS.shutdown };
    else if (this.destroyRequested) patch = { state: 'shutoff', reason: DOMAIN_REASONS.destroyed };
    else if (this.crashMeaning) patch = { state: 'crashed', ...this.crashMeaning };
    else patch = { state: 'crashed', reason: DOMAIN_REASONS.crashed, message: describeExit(e) };
    this.update({ ...patch, exitCode: e.code ?? (e.signal ? 128 + 9 : 1), qemuPid: undefined });
    this.logger.info({ state: this.status.state, reason: this.status.reason, code: e.code, signal: e.signal }, 'qemu exited');
    this.emit('exit', { status: this.status, qemu: e });
  }
}

/** Waits until QEMU's QMP socket has been read to its end (QEMU is gone, so it closes), at most QMP_DRAIN_MS. */
function drainQmp(qmp: QmpClient | undefined): Promise<void> {
  if (!qmp || qmp.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, QMP_DRAIN_MS);
    qmp.once('close', done);
    function done() { clearTimeout(timer); qmp?.off('close', done); resolve(); }
  });
}
