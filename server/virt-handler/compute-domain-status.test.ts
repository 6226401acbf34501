import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance, VMIPhase } from '../../lib/kubevirt';
import type { DomainStatus } from '../virt-launcher/protocol';
import { computeDomainStatus } from './compute-domain-status';

const now = new Date('2026-03-03T00:00:00Z');
const vmi = (over: Partial<VirtualMachineInstance> = {}, phase = 'Scheduled'): VirtualMachineInstance => ({
  metadata: { name: 'v', namespace: 'ns', uid: 'uid-1' },
  spec: {
    domain: { devices: { interfaces: [{ name: 'default', masquerade: {} }] } },
    networks: [{ name: 'default', pod: {} }],
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
  },
  status: { phase: phase as VMIPhase, nodeName: 'node-1' },
  ...over,
});
const domain = (state: DomainStatus['state'], extra: Partial<DomainStatus> = {}): DomainStatus => ({ vmiUID: 'uid-1', state, accel: 'tcg', ...extra });
const cond = (s: ReturnType<typeof computeDomainStatus>, type: string) => s.conditions?.find((c) => c.type === type);
const obs = (d?: DomainStatus, extra = {}) => ({ domain: d, node: 'node-1', now, ...extra });

describe('phase from the domain', () => {
  it.each([
    ['running', domain('running'), false, 'Running', undefined],
    ['paused still counts as running', domain('paused', { reason: 'PausedByUser' }), false, 'Running', undefined],
    ['guest powered off', domain('shutoff', { reason: 'Shutdown' }), false, 'Succeeded', undefined],
    ['QEMU killed from outside', domain('shutoff', { reason: 'Crashed', message: 'QEMU killed by SIGKILL' }), false, 'Failed', 'Crashed'],
    ['guest panicked', domain('crashed', { reason: 'Panicked' }), false, 'Failed', 'Panicked'],
    ['killed after ACPI grace ran out', domain('shutoff', { reason: 'Destroyed', acpiAttempted: true }), true, 'Failed', 'Destroyed'],
    ['killed with grace 0', domain('shutoff', { reason: 'Destroyed' }), true, 'Succeeded', undefined],
    ['QEMU failed to start', domain('shutoff', { reason: 'FailedToStart' }), false, 'Failed', 'FailedToStart'],
  ])('%s', (_n, d, deleting, phase, reason) => {
    const v = vmi(deleting ? { metadata: { name: 'v', namespace: 'ns', uid: 'uid-1', deletionTimestamp: now.toISOString() } } : {}, 'Running');
    const s = computeDomainStatus(v, obs(d));
    expect([s.phase, s.reason]).toEqual([phase, reason]);
  });

  it.each([
    ['the source launcher exits after the guest moved away', domain('shutoff', { reason: 'Migrated' }), { launcherGone: { reason: 'Migrated', message: 'domain shutoff' } }],
    ['the source domain reports Migrated before the launcher exits', domain('shutoff', { reason: 'Migrated' }), {}],
  ])('stays Running: %s', (_n, d, extra) => {
    const s = computeDomainStatus(vmi({}, 'Running'), obs(d, extra));
    expect([s.phase, s.reason]).toEqual(['Running', undefined]);
  });

  it('a running VMI says how it would migrate: BlockMigration with a node-local disk, LiveMigration on claims only', () => {
    expect(computeDomainStatus(vmi({}, 'Running'), obs(domain('running'))).migrationMethod).toBe('BlockMigration');
    const onClaims = vmi({ spec: { domain: { devices: {} }, volumes: [{ name: 'root', persistentVolumeClaim: { claimName: 'disk' } }] } } as Partial<VirtualMachineInstance>, 'Running');
    expect(computeDomainStatus(onClaims, obs(domain('running'))).migrationMethod).toBe('LiveMigration');
    expect(computeDomainStatus(vmi(), obs(domain('starting'))).migrationMethod).toBeUndefined();
  });

  it('stays Scheduled while QEMU starts', () => {
    expect(computeDomainStatus(vmi(), obs(domain('starting'))).phase).toBe('Scheduled');
  });

  it('fails with the reason and message when the launcher stopped a guest lost in post-copy', () => {
    const lost = domain('crashed', { reason: 'PostcopyFailed', message: 'VMI is irrecoverable due to failed post-copy migration' });
    const s = computeDomainStatus(vmi({}, 'Running'), obs(lost));
    expect([s.phase, s.reason]).toEqual(['Failed', 'PostcopyFailed']);
    expect(cond(s, 'Synchronized')).toMatchObject({ status: 'False', reason: 'PostcopyFailed', message: 'VMI is irrecoverable due to failed post-copy migration' });
  });

  describe('a guest that ends while it migrates away ends its migration in the same write', () => {
    const migrating = (mode: 'PreCopy' | 'PostCopy') => vmi({ status: { phase: 'Running', nodeName: 'node-1', migrationState: { migrationUid: 'm1', sourceNode: 'node-1', targetNode: 'node-2', startTimestamp: '2026-03-02T23:59:00Z', mode } } } as never, 'Running');

    it('lost in post-copy: failed, completed, endTimestamp, the launcher\'s message', () => {
      const s = computeDomainStatus(migrating('PostCopy'), obs(domain('crashed', { reason: 'PostcopyFailed', message: 'VMI is irrecoverable due to failed post-copy migration' })));
      expect(s.migrationState).toMatchObject({ migrationUid: 'm1', completed: true, failed: true, mode: 'PostCopy', endTimestamp: now.toISOString(), failureReason: 'VMI is irrecoverable due to failed post-copy migration' });
    });

    it('source QEMU killed after the switch: the guest is lost too', () => {
      const s = computeDomainStatus(migrating('PostCopy'), obs(domain('crashed', { reason: 'Crashed' })));
      expect(s.phase).toBe('Failed');
      expect(s.migrationState?.failureReason).toBe('VMI is irrecoverable due to failed post-copy migration: the source domain stopped (Crashed)');
    });

    it('source QEMU killed in pre-copy: the migration fails with the reason', () => {
      const s = computeDomainStatus(migrating('PreCopy'), obs(domain('crashed', { reason: 'Crashed' })));
      expect(s.migrationState).toMatchObject({ failed: true, completed: true, mode: 'PreCopy', failureReason: 'the source domain stopped (Crashed)' });
    });

    it('a running guest, a migration not started yet or another node\'s migration are left alone', () => {
      expect(computeDomainStatus(migrating('PreCopy'), obs(domain('running'))).migrationState?.completed).toBeUndefined();
      const notStarted = migrating('PreCopy');
      delete notStarted.status!.migrationState!.startTimestamp;
      expect(computeDomainStatus(notStarted, obs(domain('crashed', { reason: 'Crashed' }))).migrationState?.completed).toBeUndefined();
      const elsewhere = migrating('PreCopy');
      elsewhere.status!.migrationState!.sourceNode = 'node-3';
      expect(computeDomainStatus(elsewhere, obs(domain('crashed', { reason: 'Crashed' }))).migrationState?.completed).toBeUndefined();
    });
  });

  it('fails with the launcher\'s reason when the launcher is gone', () => {
    const s = computeDomainStatus(vmi({}, 'Running'), obs(undefined, { launcherGone: { reason: 'LauncherExited', message: 'virt-launcher exited (exit code 137)' } }));
    expect([s.phase, s.reason, cond(s, 'Synchronized')?.message]).toEqual(['Failed', 'LauncherExited', 'virt-launcher exited (exit code 137)']);
  });

  it('a launcher Pod the kubelet evicted fails the running VMI with reason Evicted and kube\'s message', () => {
    const message = 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. ';
    const s = computeDomainStatus(vmi({}, 'Running'), obs(domain('running'), { launcherGone: { reason: 'Evicted', message } }));
    expect([s.phase, s.reason, cond(s, 'Synchronized')?.reason, cond(s, 'Synchronized')?.message]).toEqual(['Failed', 'Evicted', 'Evicted', message]);
  });

  it.each([
    ['launcher died while the guest ran', domain('running'), 'LauncherExited', 'Failed'],
    ['launcher exited after a clean guest poweroff it already reported', domain('shutoff', { reason: 'Shutdown' }), 'LauncherExited', 'Succeeded'],
    ['launcher exited cleanly, no event seen (handler restarted)', undefined, 'Completed', 'Succeeded'],
  ])('%s', (_n, d, reason, phase) => {
    const s = computeDomainStatus(vmi({}, 'Running'), obs(d, { launcherGone: { reason, message: 'x' } }));
    expect(s.phase).toBe(phase);
  });

  it('never leaves a final phase', () => {
    expect(computeDomainStatus(vmi({}, 'Failed'), obs(domain('running'))).phase).toBe('Failed');
  });

  it('stamps the Running transition once', () => {
    const s = computeDomainStatus(vmi(), obs(domain('running')));
    expect(s.phaseTransitionTimestamps).toEqual([{ phase: 'Running', phaseTransitionTimestamp: now.toISOString() }]);
  });
});

describe('handler conditions', () => {
  it.each([
    ['PausedByUser', 'PausedByUser', 'VMI was paused by user'],
    ['StartStrategyPaused', 'PausedStartStrategy', 'VMI was paused, start strategy Paused'],
  ])('domain paused (%s) → Paused=True %s', (domainReason, reason, message) => {
    const s = computeDomainStatus(vmi({}, 'Running'), obs(domain('paused', { reason: domainReason })));
    expect(cond(s, 'Paused')).toMatchObject({ status: 'True', reason, message });
  });

  it('says on the VMI when its node has no pod network, and drops it when the guest has one', () => {
    const without = computeDomainStatus(vmi({}, 'Running'), obs(domain('running', { noPodNetwork: true })));
    expect(cond(without, 'NetworkUnavailable')).toMatchObject({ status: 'True', reason: 'NoPodNetwork' });
    expect(cond(without, 'NetworkUnavailable')?.message).toContain("QEMU's user network");
    expect(cond(computeDomainStatus({ ...vmi(), status: without }, obs(domain('running'))), 'NetworkUnavailable')).toBeUndefined();
  });

  it('says on the VMI why its QEMU kept root, and nothing when it dropped it', () => {
    const kept = computeDomainStatus(vmi({}, 'Running'), obs(domain('running', { qemuUser: { uid: 0, reason: 'PostCopyNeedsUserfaultfd', message: 'needs userfaultfd' } })));
    expect(cond(kept, 'QEMURunsAsRoot')).toMatchObject({ status: 'True', reason: 'PostCopyNeedsUserfaultfd', message: 'needs userfaultfd' });
    const dropped = computeDomainStatus({ ...vmi(), status: kept }, obs(domain('running', { qemuUser: { uid: 107 } })));
    expect(cond(dropped, 'QEMURunsAsRoot')).toBeUndefined();
  });

  it('removes Paused on resume', () => {
    const paused = computeDomainStatus(vmi({}, 'Running'), obs(domain('paused', { reason: 'PausedByUser' })));
    const resumed = computeDomainStatus({ ...vmi(), status: paused }, obs(domain('running')));
    expect(cond(resumed, 'Paused')).toBeUndefined();
  });

  it('containerDisk + masquerade VMIs are live-migratable', () => {
    expect(cond(computeDomainStatus(vmi(), obs(domain('running'))), 'LiveMigratable')?.status).toBe('True');
  });

  it.each([
    ['bridge on the pod network', (v: VirtualMachineInstance) => { v.spec.domain.devices.interfaces = [{ name: 'default', bridge: {} }]; }, 'InterfaceNotLiveMigratable'],
    ['a PVC', (v: VirtualMachineInstance) => { v.spec.volumes = [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }]; }, 'DisksNotLiveMigratable'],
  ])('%s → LiveMigratable=False %s', (_n, mutate, reason) => {
    const v = vmi();
    mutate(v);
    const c = cond(computeDomainStatus(v, obs(domain('running'))), 'LiveMigratable');
    expect([c?.status, c?.reason]).toEqual(['False', reason]);
    expect(c?.message).toMatch(/cannot migrate VMI/);
  });

  it('AgentConnected follows the guest agent', () => {
    const up = computeDomainStatus(vmi(), obs(domain('running'), { guest: { connected: true } }));
    expect(cond(up, 'AgentConnected')?.status).toBe('True');
    expect(cond(computeDomainStatus({ ...vmi(), status: up }, obs(domain('running'), { guest: { connected: false } })), 'AgentConnected')).toBeUndefined();
  });

  it('records TCG software emulation', () => {
    expect(cond(computeDomainStatus(vmi(), obs(domain('running'))), 'SoftwareEmulation')).toMatchObject({ status: 'True', reason: 'UseEmulation' });
    expect(cond(computeDomainStatus(vmi(), obs(domain('running', { accel: 'kvm' }))), 'SoftwareEmulation')).toBeUndefined();
  });
});

describe('guest details', () => {
  const d = domain('running', { machine: 'pc-q35-7.2', interfaces: [{ name: 'default', mac: '52:54:00:12:34:56', ipAddress: '10.0.2.15' }] });

  it('reports the masquerade address and machine from the domain', () => {
    const s = computeDomainStatus(vmi(), obs(d));
    expect(s.machine).toEqual({ type: 'pc-q35-7.2' });
    expect(s.interfaces).toEqual([{ name: 'default', mac: '52:54:00:12:34:56', ipAddress: '10.0.2.15', ipAddresses: ['10.0.2.15'], infoSource: 'domain', podInterfaceName: 'eth0', linkState: 'up' }]);
  });

  it('merges guest agent addresses and OS info', () => {
    const guest = {
      connected: true,
      os: { name: 'Debian GNU/Linux', id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12', kernelRelease: '6.1.0' },
      interfaces: [{ name: 'eth0', mac: '52:54:00:12:34:56', ipAddresses: ['10.0.2.15', 'fe80::1'] }],
    };
    const s = computeDomainStatus(vmi(), obs(d, { guest }));
    expect(s.interfaces?.[0]).toMatchObject({ interfaceName: 'eth0', infoSource: 'domain, guest-agent', ipAddresses: ['10.0.2.15'] });
    expect(s.guestOSInfo).toEqual(guest.os);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['masquerade keeps the Pod IP the guest agent cannot see', { masquerade: {} }, '10.244.1.7'],
    ['bridge takes the guest agent addresses', { bridge: {} }, '10.244.1.9'],
  ])('%s', (_what, binding, want) => {
    const onPod = domain('running', { interfaces: [{ name: 'default', mac: '02:00:00:12:34:56', ipAddress: '10.244.1.7' }] });
    const guest = { connected: true, interfaces: [{ name: 'eth0', mac: '02:00:00:12:34:56', ipAddresses: [want === '10.244.1.7' ? '10.0.2.2' : want] }] };
    const v = vmi();
    v.spec.domain.devices!.interfaces = [{ name: 'default', ...binding }];
    expect(computeDomainStatus(v, obs(onPod, { guest })).interfaces?.[0]).toMatchObject({ ipAddress: want, interfaceName: 'eth0' });
  });
});
