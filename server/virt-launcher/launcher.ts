/**
 * The launcher's brain: turns `sync`/`prepareIncoming` into a running Domain (convert, create
 * files, spawn QEMU) and routes the lifecycle, query and migration commands to it. One launcher
 * runs at most one domain (one VMI boot); when QEMU exits the launcher reports and ends.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { log } from '../log';
import { DOMAIN_REASONS, LAUNCHER_ERRORS, POD_FILES, type AccessCredentials, type CommandArgs, type CommandName, type DomainStatus, type HotplugDisk, type LauncherEvent, type LauncherInputs, type LauncherVMI, type MigrationInfo } from './protocol';
import { checkLauncherVMI } from './vmi-types';
import { ConverterError, renderQemuArgs, type ConverterInput, type ConverterOutput } from './converter/qemu-args';
import { Domain, type DomainExit } from './domain';
import { createDomainFiles } from './prepare-files';
import { planCloudInitMedia, writeCloudInitMedia } from './converter/cloud-init';
import { planConfigDisks, writeConfigDisks } from './converter/config-disks';
import { podInterface, podNetworkIP, setUpPodNetwork, type PodNetwork } from './network/pod-binding';
import { findFreePort, FINAL_MIGRATION_STATES, isPostcopyLost, LAUNCHER_PORTS, listenPort, MIGRATION_LISTEN_HOST, POSTCOPY_ACTIVE, POSTCOPY_FAILED_MESSAGE, POSTCOPY_WAKE_STATES, PRE_SWITCHOVER, queryMigration, shouldStartPostcopy, startIncoming, startOutgoing } from './migration/domain-migration';
import { collectDomainStats } from './domain-stats';
import { AgentNotConnected, applyAccessCredentials, freezeFilesystems, queryGuestFilesystems, queryGuestInfo, queryGuestUsers, rebootViaAgent } from './guest-agent';
import { exportDisks, listWritableDisks, startDiskMirror, unexportDisks, type DiskMirror } from './migration/disk-mirror';
import { monitorMigration, type MigrationMonitor } from './migration/migration-monitor';
import { StepTimer } from './step-timer';
import { SerialLog } from './serial-log';
import { claimResolver, volumesDir } from './claim-mounts';
import { HotplugDisks } from './hotplug-disks';
import { CPUHotplugError, setSockets, type CPUTopologyNow } from './cpu-hotplug';
import { MemoryHotplugError, currentGuestMemory, setGuestMemory, type GuestMemoryNow } from './memory-hotplug';
import { GuestPorts, type GuestEndpoint, type GuestProtocol } from './guest-ports';
import { GUEST_NETWORK } from './converter/qemu-args-net';
import { HugetlbfsResolver } from './hugetlbfs';
import { canHidePaths } from './qemu-secrets';
import { pinVcpus } from './vcpu-pinning';
import { startSwtpm, type SwtpmProcess } from './swtpm-process';
import { firstQemuUser, handOverDisk, podNetDevices, prepareQemuUser, type QemuRunAs } from './launcher-qemu-user';
import type { NetDeviceNodes } from './qemu-net-devices';
import type { QemuIdentity } from './qemu-user';

export class CommandError extends Error {
  constructor(readonly reason: string, message: string) { super(message); }
}

export interface LauncherOptions {
  podDir: string;
  accel: () => Promise<'kvm' | 'tcg'>;
  image: ConverterInput['image'];
  ovmf?: ConverterInput['ovmf'];
  binary?: string;
  swtpmBinary?: string;
  /** Paths QEMU must not see, read at each start (qemu-secrets.ts). */
  hidePaths?: () => string[];
  /** the data dir (what QEMU's user may be given access inside of: qemu-ownership.ts) */
  dataDir?: string;
  /** the user QEMU and swtpm drop to where they need no root; unset: they run as the launcher (qemu-user.ts) */
  qemuIdentity?: QemuIdentity;
}

export class Launcher extends EventEmitter<{ event: [LauncherEvent]; exit: [DomainExit] }> {
  domain?: Domain;
  /** the VMI's terminationGracePeriodSeconds (SIGTERM → ACPI shutdown with this grace). */
  graceSeconds?: number;
  private starting?: Promise<DomainStatus>;
  private plan?: ConverterOutput;
  private migrationMonitor?: MigrationMonitor;
  private serialLog?: SerialLog;
  private incoming?: Promise<{ host: string; port: number; nbdPort?: number }>;
  private swtpm?: SwtpmProcess;
  private logger = log.child({ component: 'virt-launcher' });

  constructor(readonly opts: LauncherOptions) { super(); }

  async handle<C extends CommandName>(cmd: C, args: CommandArgs<C>): Promise<unknown> {
    // read as every command's fields at once (all optional: a request may come without args); each case reads its own
    const a = args as Partial<CommandArgs<'prepareIncoming'> & CommandArgs<'shutdown'> & CommandArgs<'freeze'> & NonNullable<CommandArgs<'screendump'>> & CommandArgs<'hotplug'> & CommandArgs<'setCPUs'> & CommandArgs<'setMemory'>> | undefined;
    switch (cmd) {
      case 'sync': return this.ensureDomain(a?.vmi, false, a?.inputs);
      case 'prepareIncoming': return this.prepareIncoming(a?.vmi, a?.allowPostCopy === true, a?.inputs);
      case 'status': return this.requireDomain().status;
      case 'pause': await this.requireDomain().pause(); return this.domain!.status;
      case 'unpause': await this.requireDomain().unpause(); return this.domain!.status;
      case 'reset': await this.requireDomain().reset(); return this.domain!.status;
      case 'kill': await this.domain?.kill(); return this.domain?.status;
      case 'shutdown': await this.domain?.shutdown(Number(a?.graceSeconds ?? 0)); return this.domain?.status;
      case 'softReboot': return this.softReboot();
      case 'guestInfo': this.requireDomain(); return queryGuestInfo(this.opts.podDir);
      case 'guestUsers': this.requireDomain(); return this.fromAgent(() => queryGuestUsers(this.opts.podDir));
      case 'guestFilesystems': this.requireDomain(); return this.fromAgent(() => queryGuestFilesystems(this.opts.podDir));
      case 'freeze': return this.freeze(Number(a?.unfreezeTimeoutSeconds ?? 0));
      case 'unfreeze': return this.unfreeze();
      case 'setAccessCredentials': this.requireDomain(); await this.fromAgent(() => applyAccessCredentials(this.opts.podDir, (args as AccessCredentials | undefined) ?? {})); return { ok: true };
      case 'stats': return this.stats();
      case 'screendump': return this.screendump(a?.format === 'png' ? 'png' : 'ppm');
      case 'migrate': return this.migrate(args as CommandArgs<'migrate'>);
      case 'migrationStatus': return queryMigration(this.requireDomain().requireQmp());
      case 'hotplug': return this.hotplug(a?.disks);
      case 'setCPUs': return this.setCPUs(a?.sockets);
      case 'setMemory': return this.setMemory(a?.guestBytes);
      case 'memory': return this.memory();
      case 'migrateCancel': return this.cancelMigration();
      case 'migrateStartPostcopy': return this.startPostcopy();
      default: throw new CommandError(LAUNCHER_ERRORS.unknownCommand, `unknown command ${JSON.stringify(cmd)}`);
    }
  }

  private hotplugDisks?: HotplugDisks;
  /** the user QEMU runs as (hot-plugged disks are handed to it) */
  private runAs?: QemuRunAs;
  /** the pod interface's binding (set up once per launcher; a Pod namespace only) */
  private podNetwork?: PodNetwork;

  private readonly guestPorts = new GuestPorts({
    hostPorts: () => this.domain?.status.hostPorts ?? [],
    userNetdev: () => (!this.podNetwork && this.plan?.interfaces[0] ? `net-${this.plan.interfaces[0].name}` : undefined),
    // masquerade: the guest is 10.0.2.2 behind k6t-eth0 in this namespace; bridge: it holds the Pod IP
    // itself and this namespace has no address to reach it from
    directAddress: () => (this.podNetwork?.kind === 'masquerade' ? GUEST_NETWORK.guest : undefined),
    qmp: () => this.requireDomain().requireQmp(),
    freePort: () => findFreePort('127.0.0.1'),
  });

  /** Where a port-forward stream to the guest's TCP `port` connects (port-forward-server.ts). */
  guestEndpoint(port: number, protocol: GuestProtocol = 'tcp'): Promise<GuestEndpoint> {
    this.requireDomain();
    return this.guestPorts.endpoint(port, protocol);
  }

  private async hotplug(disks: unknown): Promise<{ name: string; target: string }[]> {
    if (!Array.isArray(disks)) throw new CommandError(LAUNCHER_ERRORS.badRequest, 'hotplug: disks must be a list');
    const d = this.requireDomain();
    this.hotplugDisks ??= new HotplugDisks(() => d.requireQmp(), d, (file, readOnly) => { if (this.runAs) handOverDisk(this.runAs, this.opts.dataDir, file, readOnly); });
    try {
      return await this.hotplugDisks.sync(disks as HotplugDisk[]);
    } catch (err) {
      throw new CommandError(LAUNCHER_ERRORS.qmp, `hotplug: ${(err as Error).message}`);
    }
  }

  /** vCPUs after a hotplug (the plan's count until then) */
  private vcpusNow?: number;

  private async setCPUs(sockets: unknown): Promise<CPUTopologyNow> {
    if (typeof sockets !== 'number') throw new CommandError(LAUNCHER_ERRORS.badRequest, 'setCPUs: sockets must be a number');
    const qmp = this.requireDomain().requireQmp();
    try {
      const now = await setSockets(qmp, sockets);
      this.vcpusNow = now.vcpus;
      return now;
    } catch (err) {
      if (err instanceof CPUHotplugError) throw new CommandError(LAUNCHER_ERRORS.badRequest, `setCPUs: ${err.message}`);
      throw new CommandError(LAUNCHER_ERRORS.qmp, `setCPUs: ${(err as Error).message}`);
    }
  }

  private async setMemory(guestBytes: unknown): Promise<GuestMemoryNow> {
    if (typeof guestBytes !== 'number') throw new CommandError(LAUNCHER_ERRORS.badRequest, 'setMemory: guestBytes must be a number');
    const qmp = this.requireDomain().requireQmp();
    try {
      return await setGuestMemory(qmp, guestBytes);
    } catch (err) {
      if (err instanceof MemoryHotplugError) throw new CommandError(LAUNCHER_ERRORS.badRequest, `setMemory: ${err.message}`);
      throw new CommandError(LAUNCHER_ERRORS.qmp, `setMemory: ${(err as Error).message}`);
    }
  }

  private async memory(): Promise<GuestMemoryNow> {
    try {
      return await currentGuestMemory(this.requireDomain().requireQmp());
    } catch (err) {
      if (err instanceof MemoryHotplugError) throw new CommandError(LAUNCHER_ERRORS.badRequest, `memory: ${err.message}`);
      throw new CommandError(LAUNCHER_ERRORS.qmp, `memory: ${(err as Error).message}`);
    }
  }

  private thawTimer?: NodeJS.Timeout;

  /** KubeVirt's freeze: the agent freezes every filesystem; a thaw is scheduled so a lost unfreeze cannot hang the guest. */
  private async freeze(unfreezeTimeoutSeconds: number): Promise<DomainStatus> {
    const d = this.requireDomain();
    await this.fromAgent(() => freezeFilesystems(this.opts.podDir, true));
    d.update({ fsFrozen: true });
    clearTimeout(this.thawTimer);
    if (unfreezeTimeoutSeconds > 0) {
      this.thawTimer = setTimeout(() => void this.unfreeze().catch(() => undefined), unfreezeTimeoutSeconds * 1000);
      this.thawTimer.unref();
    }
    return d.status;
  }

  private async unfreeze(): Promise<DomainStatus> {
    const d = this.requireDomain();
    clearTimeout(this.thawTimer);
    await this.fromAgent(() => freezeFilesystems(this.opts.podDir, false));
    d.update({ fsFrozen: false });
    return d.status;
  }

  private async fromAgent<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch (err) {
      if (err instanceof AgentNotConnected) throw new CommandError(LAUNCHER_ERRORS.agentNotConnected, err.message);
      throw err;
    }
  }

  /** Idempotent: the first sync starts the domain, later ones (same VMI UID) return its status. */
  ensureDomain(input: unknown, incoming: boolean, inputs: LauncherInputs = {}, allowPostCopy = false): Promise<DomainStatus> {
    const problem = checkLauncherVMI(input);
    if (problem) throw new CommandError(LAUNCHER_ERRORS.badRequest, `sync needs a VMI: ${problem}`);
    const vmi = input as LauncherVMI;
    const uid = vmi.metadata.uid ?? '';
    if (this.domain && this.domain.status.vmiUID !== uid) {
      throw new CommandError(LAUNCHER_ERRORS.uidMismatch, `this launcher runs VMI ${this.domain.status.vmiUID}, not ${uid}`);
    }
    this.graceSeconds = vmi.spec.terminationGracePeriodSeconds ?? this.graceSeconds;
    this.starting ??= this.startDomain(vmi, incoming, inputs, allowPostCopy);
    return this.starting.then(() => this.domain!.status);
  }

  private async startDomain(vmi: LauncherVMI, incoming: boolean, inputs: LauncherInputs, allowPostCopy: boolean): Promise<DomainStatus> {
    const steps = new StepTimer();
    const accel = await this.opts.accel();
    steps.lap('accel');
    const { podDir } = this.opts;
    const domain = new Domain(podDir, { vmiUID: vmi.metadata.uid ?? '', accel });
    this.domain = domain;
    this.hotplugDisks = undefined;
    this.vcpusNow = undefined;
    domain.on('status', (status) => this.emit('event', { event: 'domain', status }));
    domain.on('exit', (e) => { this.migrationMonitor?.stop(); this.serialLog?.stop(); this.swtpm?.stop(); this.emit('exit', e); });
    try {
      const cloudInit = planCloudInitMedia(vmi, podDir, inputs);
      const configDisks = planConfigDisks(vmi, podDir, inputs);
      const media = Object.fromEntries([...cloudInit, ...configDisks].map((p) => [p.volume, p.path]));
      const podIP = podNetworkIP();
      // the tap is made for the user QEMU will run as (its owner, vhost only where that user may open it)
      let user = firstQemuUser({ identity: this.opts.qemuIdentity, allowPostCopy, accel });
      let netNodes: NetDeviceNodes | undefined;
      if (podIP) {
        const net = podInterface(vmi) ? podNetDevices(user, canHidePaths()) : undefined;
        if (net) ({ user, nodes: netNodes } = net);
        this.podNetwork ??= await setUpPodNetwork({ vmi, podIP, launcherPorts: Object.values(LAUNCHER_PORTS), log: this.logger, tapOwner: net?.tapOwner, vhost: net?.vhost ?? false });
        steps.lap('network');
      }
      const ports = new Map<string, number>();
      for (const iface of vmi.spec.domain.devices?.interfaces ?? []) {
        for (const p of iface.ports ?? []) ports.set(`${p.protocol ?? 'TCP'}/${p.port}`, await findFreePort('127.0.0.1'));
      }
      const hugetlbfs = new HugetlbfsResolver(podDir, canHidePaths());
      this.plan = renderQemuArgs({
        vmi, podDir, accel, hugepagesMount: (size) => hugetlbfs.resolve(size), image: this.opts.image, cloudInitMedia: media, ovmf: this.opts.ovmf, incoming, binary: this.opts.binary,
        allocateHostPort: (p) => ports.get(`${p.protocol}/${p.port}`)!,
        claim: claimResolver(volumesDir(podDir), vmi),
        podIP, podTap: this.podNetwork?.tap,
      });
      domain.update({ machine: this.plan.machine, hostPorts: this.plan.hostPorts, interfaces: this.plan.interfaces, noPodNetwork: !podIP && podInterface(vmi) !== undefined });
      steps.lap('convert');
      await Promise.all([writeCloudInitMedia(cloudInit), writeConfigDisks(configDisks), createDomainFiles(this.plan.files)]);
      steps.lap('files');
      const runAs = prepareQemuUser({
        podDir, dataDir: this.opts.dataDir, user, netNodes,
        plan: this.plan, hugetlbfs: hugetlbfs.toMount, canUseNamespace: canHidePaths(),
      });
      this.runAs = runAs;
      domain.update({ qemuUser: runAs.status });
      if (!runAs.user.drop && runAs.status.reason) this.logger.info({ reason: runAs.status.reason, message: runAs.status.message }, 'QEMU keeps root');
      steps.lap('user');
      if (this.plan.tpm) {
        this.swtpm = await startSwtpm(this.plan.tpm, podDir, this.opts.swtpmBinary, runAs);
        steps.lap('swtpm');
      }
      const devices = vmi.spec.domain.devices ?? {};
      if (devices.autoattachSerialConsole !== false) {
        this.serialLog = new SerialLog({
          qemuSocket: join(podDir, POD_FILES.qemuSerialSocket), clientSocket: join(podDir, POD_FILES.serialSocket),
          logFile: devices.logSerialConsole === false ? undefined : join(podDir, POD_FILES.guestConsoleLog),
        });
      }
      await domain.start({ binary: this.plan.binary, args: this.plan.args, startPaused: vmi.spec.startStrategy === 'Paused', incoming, beforeRun: () => this.serialLog?.start() ?? Promise.resolve(), hidePaths: this.opts.hidePaths?.(), hugetlbfs: runAs.hugetlbfs, userArgs: runAs.userArgs, reveal: runAs.reveal, netNodes: runAs.netNodes });
      steps.lap('qemu');
      const cpu = vmi.spec.domain.cpu;
      if (cpu?.dedicatedCpuPlacement) {
        const plan = await pinVcpus(domain.requireQmp(), domain.status.qemuPid!, { isolateEmulatorThread: cpu.isolateEmulatorThread === true });
        this.logger.info({ vcpus: plan.vcpus, emulator: plan.emulator.cpus }, 'vCPUs pinned to the Pod\'s dedicated CPUs');
        steps.lap('pin');
      }
      this.logger.info({ vmiUID: domain.status.vmiUID, pid: domain.status.qemuPid, accel, state: domain.status.state, steps: steps.laps }, 'domain started');
      return domain.status;
    } catch (err) {
      const reason = err instanceof ConverterError ? err.reason : LAUNCHER_ERRORS.startFailed;
      if (domain.running) await domain.kill();
      this.swtpm?.stop();
      domain.update({ state: 'shutoff', reason, message: (err as Error).message });
      this.emit('exit', { status: domain.status, qemu: { code: null, signal: null, stderrTail: '' } });
      throw new CommandError(reason, (err as Error).message);
    }
  }

  /**
   * Idempotent, as `sync` is: a virt-handler killed after asking (or restarted before it recorded the
   * answer) asks again and gets the same ports — a second NBD server or incoming socket cannot be
   * opened (the crash storm caught a target stuck on "NBD server already running"). A failed attempt
   * may be retried.
   */
  private prepareIncoming(vmi: unknown, allowPostCopy: boolean, inputs?: LauncherInputs): Promise<{ host: string; port: number; nbdPort?: number }> {
    this.incoming ??= this.setUpIncoming(vmi, allowPostCopy, inputs).catch((err: unknown) => {
      this.incoming = undefined;
      throw err;
    });
    return this.incoming;
  }

  private async setUpIncoming(vmi: unknown, allowPostCopy: boolean, inputs?: LauncherInputs): Promise<{ host: string; port: number; nbdPort?: number }> {
    await this.ensureDomain(vmi, true, inputs, allowPostCopy);
    const d = this.requireDomain();
    const qmp = d.requireQmp();
    const disks = await listWritableDisks(qmp, this.plan?.sharedDisks);
    let switched = false;
    d.on('qmpEvent', (e) => {
      if (e.event !== 'MIGRATION') return;
      const status = String(e.data?.status);
      if (status === POSTCOPY_ACTIVE) {
        switched = true;
        // from here until completed, QEMU ending by itself (the source died mid-stream) loses the guest too
        d.setCrashMeaning({ reason: DOMAIN_REASONS.postcopyFailed, message: POSTCOPY_FAILED_MESSAGE });
      }
      // the source is gone after the switch: the pages it still held are lost, this guest cannot go on
      if (isPostcopyLost({ status }, switched)) void this.losePostcopyGuest(d, status);
      if (status !== 'completed') return;
      d.setCrashMeaning(undefined);
      // started with -S: continue once the state is in (the source finished the disk copies before switching over)
      void qmp.execute('cont').catch(() => undefined).then(() => disks.length ? unexportDisks(qmp, disks) : undefined);
    });
    let nbdPort: number | undefined;
    if (disks.length) {
      nbdPort = await listenPort('nbd');
      await exportDisks(qmp, MIGRATION_LISTEN_HOST, nbdPort, disks);
    }
    return { ...(await startIncoming(qmp, { allowPostCopy })), nbdPort };
  }

  private async migrate(a: CommandArgs<'migrate'>): Promise<MigrationInfo> {
    const d = this.requireDomain();
    const qmp = d.requireQmp();
    if (!a?.host || !Number.isInteger(a.port)) throw new CommandError(LAUNCHER_ERRORS.badRequest, 'migrate needs host and port');
    const before = d.status.state;
    d.setState('migrating', undefined);
    let mirror: DiskMirror | undefined;
    try {
      const disks = a.nbdPort ? await listWritableDisks(qmp, this.plan?.sharedDisks) : [];
      if (disks.length) mirror = await startDiskMirror(qmp, d, a.host, a.nbdPort!, disks);
      await startOutgoing(qmp, { ...a, pauseBeforeSwitchover: mirror !== undefined });
    } catch (err) {
      await mirror?.abort();
      d.setState(before, undefined);
      throw new CommandError(LAUNCHER_ERRORS.migration, (err as Error).message);
    }
    let postcopy = false;
    let switched = false;
    let switching = false;
    this.migrationMonitor = monitorMigration(d, async (info) => {
      if (info.status === POSTCOPY_ACTIVE) switched = true;
      if (isPostcopyLost(info, switched)) {
        this.migrationMonitor?.stop();
        this.emit('event', { event: 'migration', info: { ...info, status: 'failed', errorDesc: postcopyFailure(info) } });
        return this.losePostcopyGuest(d, info.status);
      }
      this.emit('event', { event: 'migration', info });
      if (!postcopy && shouldStartPostcopy(info, a.params)) { postcopy = true; await qmp.execute('migrate-start-postcopy').catch(() => undefined); }
      if (mirror && !switching && info.status === PRE_SWITCHOVER) { switching = true; await this.switchOver(qmp, mirror); }
      if (!FINAL_MIGRATION_STATES.has(info.status)) return;
      if (info.status === 'completed') { d.setState('migrated', undefined); await d.quit(); } else { await mirror?.abort(); d.setState(before, undefined); }
    }, mirror ? [PRE_SWITCHOVER, ...POSTCOPY_WAKE_STATES] : POSTCOPY_WAKE_STATES);
    return queryMigration(qmp);
  }

  /** The handler's completion timeout ran out on a migration that allows post-copy. */
  private async startPostcopy(): Promise<MigrationInfo> {
    const qmp = this.requireDomain().requireQmp();
    try {
      await qmp.execute('migrate-start-postcopy');
    } catch (err) {
      throw new CommandError(LAUNCHER_ERRORS.migration, `cannot switch to post-copy: ${(err as Error).message}`);
    }
    return queryMigration(qmp);
  }

  /** After the switch to post-copy the guest runs on the target with part of its memory here: cancelling would lose it. */
  private async cancelMigration(): Promise<MigrationInfo> {
    const qmp = this.requireDomain().requireQmp();
    const now = await queryMigration(qmp);
    if (now.status.startsWith('postcopy-')) throw new CommandError(LAUNCHER_ERRORS.migration, 'the migration is in post-copy mode and cannot be cancelled: the guest already runs on the target');
    await qmp.execute('migrate_cancel');
    return queryMigration(qmp);
  }

  /** A post-copy migration broke after the switch: stop this QEMU (no orphan); the domain ends crashed/PostcopyFailed. */
  private async losePostcopyGuest(d: Domain, status: string): Promise<void> {
    if (!d.running) return;
    this.logger.error({ vmiUID: d.status.vmiUID, migration: status }, 'post-copy migration broke: the guest is lost, stopping QEMU');
    await d.fail(DOMAIN_REASONS.postcopyFailed, POSTCOPY_FAILED_MESSAGE);
  }

  /** Source paused before the last device state goes: finish the disk copies, then let it switch over. */
  private async switchOver(qmp: ReturnType<Domain['requireQmp']>, mirror: DiskMirror): Promise<void> {
    try {
      await mirror.complete();
      await qmp.execute('migrate-continue', { state: PRE_SWITCHOVER });
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'disk copy did not complete: cancelling the migration');
      await qmp.execute('migrate_cancel').catch(() => undefined);
    }
  }

  private async softReboot(): Promise<{ method: 'guest-agent' | 'acpi' }> {
    const d = this.requireDomain();
    if (d.status.agentConnected && await rebootViaAgent(this.opts.podDir)) return { method: 'guest-agent' };
    d.requestRebootOnShutdown();
    await d.requireQmp().execute('system_powerdown');
    return { method: 'acpi' };
  }

  private async stats() {
    const d = this.requireDomain();
    return collectDomainStats({ qmp: d.requireQmp(), pid: d.status.qemuPid ?? -1, vcpus: this.vcpusNow ?? this.plan?.vcpus ?? 1, memoryBytes: this.plan?.memoryBytes ?? 0 });
  }

  private async screendump(format: 'ppm' | 'png'): Promise<{ path: string; format: 'ppm' | 'png' }> {
    const qmp = this.requireDomain().requireQmp();
    const path = join(this.opts.podDir, `screendump.${format}`);
    try {
      await qmp.execute('screendump', format === 'png' ? { filename: path, format: 'png' } : { filename: path });
      return { path, format };
    } catch (err) {
      if (format === 'ppm') throw err;
      return this.screendump('ppm');
    }
  }

  requireDomain(): Domain {
    if (!this.domain) throw new CommandError(LAUNCHER_ERRORS.notStarted, 'no domain: send sync first');
    return this.domain;
  }
}

function postcopyFailure(info: MigrationInfo): string {
  return info.errorDesc ? `${POSTCOPY_FAILED_MESSAGE}: ${info.errorDesc}` : `${POSTCOPY_FAILED_MESSAGE} (QEMU: ${info.status})`;
}
