/**
 * virt-handler ↔ virt-launcher protocol on `<pod dir>/launcher.sock`.
 *
 * JSON lines, both directions. The handler sends `{id, cmd, args?}`; the launcher answers
 * `{id, ok: true, result}` or `{id, ok: false, error: {reason, message}}` and pushes events
 * (`{event: 'domain', status}` on every state change, `{event: 'migration', info}` while a
 * migration runs) to every connected client. Several clients may connect; requests are
 * idempotent where they can be (`sync` twice starts one domain).
 *
 * A leaf module: it imports only types. The client (launcher-client.ts) and the server import it;
 * virt-handler imports this protocol and the client, nothing else of the launcher.
 */
import type { LauncherVMI } from './vmi-types';

export type { LauncherVMI } from './vmi-types';

/**
 * How long the source launcher waits for every disk mirror to be ready (and later completed)
 * before giving up on a migration; virt-handler's `migrate` request outlives it.
 */
export const MIRROR_READY_TIMEOUT_MS = 120_000;

/** Files the launcher creates in its pod dir. */
export const POD_FILES = {
  launcherSocket: 'launcher.sock',
  launcherReady: 'launcher.ready',
  qmpSocket: 'qmp.sock',
  vncSocket: 'vnc.sock',
  /** the guest's serial console as virt-handler reaches it (the launcher's SerialLog) */
  serialSocket: 'serial.sock',
  /** QEMU's own serial chardev; only the launcher connects to it */
  qemuSerialSocket: 'ttyS0.sock',
  /** the guest's console output from its first byte, bounded (kubectl logs -c guest-console-log) */
  guestConsoleLog: 'guest-console-log.log',
  guestAgentSocket: 'qga.sock',
  /** port-forward streams: one connection per stream, `tcp <port>` first (port-forward-server.ts) */
  portForwardSocket: 'portforward.sock',
  pidFile: 'qemu.pid',
  termination: 'termination.json',
} as const;

export type DomainState =
  | 'starting' | 'running' | 'paused' | 'shutdown' | 'shutoff' | 'crashed'
  | 'migrating' | 'migrated' | 'incoming';

/** The message a lost post-copy migration ends with (on the VMIM, the VMI and the launcher's termination; KubeVirt's words). */
export const POSTCOPY_FAILED_MESSAGE = 'VMI is irrecoverable due to failed post-copy migration';

/** Why the domain is in its state (libvirt-like; virt-handler maps them to VMI phases). */
export const DOMAIN_REASONS = {
  /** paused by a `pause` command. */
  pausedByUser: 'PausedByUser',
  /** `startStrategy: Paused`: QEMU is up but never continued. */
  startPaused: 'StartStrategyPaused',
  pausedIOError: 'PausedIOError',
  pausedForMigration: 'Migration',
  /** shutoff: the guest powered itself off (or ACPI shutdown completed) → Succeeded. */
  shutdown: 'Shutdown',
  /** shutoff: killed with `kill` or at the end of the grace period → Failed if ACPI was tried. */
  destroyed: 'Destroyed',
  /** shutoff: QEMU exited on its own with an error / was killed from outside → Failed. */
  crashed: 'Crashed',
  /** shutoff: the guest panicked (guest-panicked event). */
  panicked: 'Panicked',
  /** shutoff: the domain now runs on the migration target. */
  migrated: 'Migrated',
  /** crashed: a post-copy migration broke after the switch; the guest is lost on both sides (QEMU stopped). */
  postcopyFailed: 'PostcopyFailed',
  /** QEMU could not be started (bad spec, missing image, spawn failure). */
  failedToStart: 'FailedToStart',
} as const;

export interface HostPort { name?: string; protocol: 'TCP' | 'UDP'; guestPort: number; hostPort: number }

export interface DomainStatus {
  vmiUID: string;
  state: DomainState;
  reason?: string;
  message?: string;
  qemuPid?: number;
  accel: 'kvm' | 'tcg';
  /** RFC 3339. */
  startedAt?: string;
  /** resolved machine type, e.g. `q35` (VMI status.machine.type). */
  machine?: string;
  /** guest agent channel answers guest-ping. */
  agentConnected?: boolean;
  /** the guest's declared ports, forwarded from 127.0.0.1:<hostPort>. */
  hostPorts?: HostPort[];
  /** masquerade-like user networking: the guest's address on its NAT network. */
  interfaces?: { name: string; mac: string; ipAddress: string }[];
  /** set once the shutoff/crashed QEMU process exit code is known. */
  exitCode?: number;
  /** ACPI shutdown was attempted before the domain stopped (handler: Destroyed+acpi → Failed). */
  acpiAttempted?: boolean;
  /** the guest's filesystems are frozen through the agent (VMI status.fsFreezeStatus "frozen") */
  fsFrozen?: boolean;
  /** the VMI wants the pod network but its Pod has none: the guest sits behind QEMU's user network */
  noPodNetwork?: boolean;
  /** the user QEMU runs as; `reason`/`message` say why it kept root (qemu-user.ts) */
  qemuUser?: { uid: number; reason?: string; message?: string };
}

export interface GuestInfo {
  connected: boolean;
  agentVersion?: string;
  hostname?: string;
  /** KubeVirt's form: `<zone>, <offset seconds>` */
  timezone?: string;
  os?: { name?: string; id?: string; version?: string; versionId?: string; prettyName?: string; kernelRelease?: string; kernelVersion?: string; machine?: string };
  interfaces?: { name: string; mac?: string; ipAddresses: string[] }[];
}

/** guest-get-users: who is logged in (loginTime in seconds since the epoch). */
export interface GuestUser { userName: string; domain?: string; loginTime?: number }

/** guest-get-fsinfo: one mounted filesystem with its use. */
export interface GuestFilesystem { diskName: string; mountPoint: string; fileSystemType: string; usedBytes?: number; totalBytes?: number }

export interface DomainStats {
  timestamp: string;
  /** guest CPU time consumed by QEMU (utime+stime of the process), seconds. */
  cpuSeconds: { total: number; user: number; system: number };
  vcpus: number;
  memory: { domainBytes: number; residentBytes?: number; actualBalloonBytes?: number };
  block: { name: string; readBytes: number; writeBytes: number; readOps: number; writeOps: number; readTimeNs: number; writeTimeNs: number; flushOps: number }[];
  net: { name: string; rxBytes?: number; txBytes?: number; rxPackets?: number; txPackets?: number }[];
}

export interface MigrationParams {
  bandwidthBytesPerSec?: number;
  allowAutoConverge?: boolean;
  allowPostCopy?: boolean;
  downtimeMs?: number;
}

/** QMP query-migrate, flattened. */
export interface MigrationInfo {
  status: 'none' | 'setup' | 'active' | 'postcopy-active' | 'completed' | 'failed' | 'cancelling' | 'cancelled' | 'pre-switchover' | 'device' | 'wait-unplug' | string;
  totalTimeMs?: number;
  expectedDowntimeMs?: number;
  downtimeMs?: number;
  setupTimeMs?: number;
  transferredBytes?: number;
  remainingBytes?: number;
  totalBytes?: number;
  /** Mbit/s as QEMU reports `ram.mbps`. */
  mbps?: number;
  dirtyPagesRate?: number;
  dirtySyncCount?: number;
  postcopyRequests?: number;
  errorDesc?: string;
}

/** A hot-plugged disk as virt-handler asks for it: the claim as the attachment Pod sees it. */
export interface HotplugDisk {
  name: string;
  /** the claim's directory (disk.img inside, created sparse at capacityBytes when missing) or its Block file */
  path: string;
  block: boolean;
  capacityBytes?: number;
  readOnly?: boolean;
  serial?: string;
}

/** KubeVirt's accessCredentials as the agent applies them: each user's whole authorized_keys, passwords. */
export interface AccessCredentials { authorizedKeys?: { user: string; keys: string[] }[]; passwords?: { user: string; password: string }[] }

/**
 * What the VMI names but does not hold, read by virt-handler through the API (KubeVirt's launcher
 * reads the same from Secrets and ConfigMaps mounted into its Pod): the launcher writes it into the
 * guest's cloud-init and config disks.
 */
export interface LauncherInputs {
  /** per cloud-init volume: user and network data from its `secretRef` / `networkDataSecretRef` */
  cloudInit?: Record<string, { userData?: string; networkData?: string }>;
  /** SSH public keys of accessCredentials propagated through cloud-init (`propagationMethod.noCloud` / `configDrive`) */
  sshPublicKeys?: { noCloud?: string[]; configDrive?: string[] };
  /** per configMap, secret, serviceAccount or downwardAPI volume: its files (path → base64 content) */
  configVolumes?: Record<string, Record<string, string>>;
}

/** Command name → [args, result]. */
export interface Commands {
  sync: [{ vmi: LauncherVMI; inputs?: LauncherInputs }, DomainStatus];
  status: [undefined, DomainStatus];
  pause: [undefined, DomainStatus];
  unpause: [undefined, DomainStatus];
  /** ACPI powerdown, re-sent every 5 s, QEMU killed once graceSeconds elapsed (0 → kill now). */
  shutdown: [{ graceSeconds: number }, DomainStatus];
  kill: [undefined, DomainStatus];
  reset: [undefined, DomainStatus];
  /** guest-agent `guest-shutdown mode=reboot` when connected, else ACPI powerdown + reboot on the next SHUTDOWN. */
  softReboot: [undefined, { method: 'guest-agent' | 'acpi' }];
  guestInfo: [undefined, GuestInfo];
  /** fails with GuestAgentNotConnected when no agent answers */
  guestUsers: [undefined, GuestUser[]];
  guestFilesystems: [undefined, GuestFilesystem[]];
  /**
   * KubeVirt's accessCredentials through the agent: each user's authorized_keys replaced by `keys`,
   * each password set; fails with GuestAgentNotConnected when no agent answers.
   */
  setAccessCredentials: [AccessCredentials, { ok: true }];
  /** guest-fsfreeze-freeze; thawed by `unfreeze` or, at the latest, after unfreezeTimeoutSeconds (0: never) */
  freeze: [{ unfreezeTimeoutSeconds: number }, DomainStatus];
  unfreeze: [undefined, DomainStatus];
  stats: [undefined, DomainStats];
  /** PPM or PNG written into the pod dir. */
  screendump: [{ format?: 'ppm' | 'png' } | undefined, { path: string; format: 'ppm' | 'png' }];
  /** target side: start QEMU with `-incoming defer`, then migrate-incoming on a free loopback port. */
  /** `nbdPort`: where the target serves its writable node-local disks (NBD) for the source to copy them to. */
  prepareIncoming: [{ vmi: LauncherVMI; inputs?: LauncherInputs; allowPostCopy?: boolean }, { port: number; host: string; nbdPort?: number }];
  /** source side: starts the migration and returns at once; follow `migration` events or `migrationStatus`. */
  /** with `nbdPort` the writable node-local disks are copied to the target first (see disk-mirror.ts). */
  migrate: [{ host: string; port: number; nbdPort?: number; params?: MigrationParams }, MigrationInfo];
  migrationStatus: [undefined, MigrationInfo];
  migrateCancel: [undefined, MigrationInfo];
  /** switch a running migration to post-copy now (it must have been started with allowPostCopy) */
  migrateStartPostcopy: [undefined, MigrationInfo];
  /** the full set of hot-plugged disks wanted: missing ones attached (SCSI), others detached; returns what is attached, with its target */
  hotplug: [{ disks: HotplugDisk[] }, { name: string; target: string }[]];
  /** CPU hotplug: vCPUs added until the domain has `sockets` sockets (never removed); returns what the guest has now */
  setCPUs: [{ sockets: number }, { sockets: number; vcpus: number }];
  /** memory hotplug: the virtio-mem device asked for `guestBytes` in all (boot memory + requested size) */
  setMemory: [{ guestBytes: number }, { currentBytes: number; requestedBytes: number; maxBytes: number }];
  /** the guest's memory now: boot + what the guest plugged, requested, the maximum */
  memory: [undefined, { currentBytes: number; requestedBytes: number; maxBytes: number }];
}

export type CommandName = keyof Commands;
export type CommandArgs<C extends CommandName> = Commands[C][0];
export type CommandResult<C extends CommandName> = Commands[C][1];

export interface LauncherRequest<C extends CommandName = CommandName> { id: number; cmd: C; args?: CommandArgs<C> }

/** Error reasons a response can carry (plus the converter's, see converter-error.ts). */
export const LAUNCHER_ERRORS = {
  unknownCommand: 'UnknownCommand',
  badRequest: 'BadRequest',
  notStarted: 'DomainNotStarted',
  /** `sync` with a VMI whose UID differs from the one this launcher runs. */
  uidMismatch: 'VMIUIDMismatch',
  startFailed: 'QEMUStartFailed',
  qmp: 'QMPCommandFailed',
  agentNotConnected: 'GuestAgentNotConnected',
  migration: 'MigrationFailed',
  timeout: 'Timeout',
  disconnected: 'Disconnected',
} as const;

export interface ErrorBody { reason: string; message: string }

export type LauncherResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ErrorBody };

export type LauncherEvent =
  | { event: 'domain'; status: DomainStatus }
  | { event: 'migration'; info: MigrationInfo };

export type LauncherMessage = LauncherResponse | LauncherEvent;
