import { describe, expect, it } from 'vitest';
import { accessFor, decideQemuUser, qemuIdentityFromEnv, ROOT_REASONS, setprivUserArgs, type QemuUserFacts } from './qemu-user';

const facts = (over: Partial<QemuUserFacts> = {}): QemuUserFacts => ({ launcherUid: 0, identity: { uid: 107, gid: 107 }, allowPostCopy: false, accel: 'tcg', ...over });

describe('which user QEMU runs as', () => {
  it('is 107:107 by default, configurable, and never drops for root or 0', () => {
    expect(qemuIdentityFromEnv({})).toEqual({ uid: 107, gid: 107 });
    expect(qemuIdentityFromEnv({ KV_QEMU_UID: '2000', KV_QEMU_GID: '36' })).toEqual({ uid: 2000, gid: 36 });
    expect(qemuIdentityFromEnv({ KV_QEMU_UID: '2000' })).toEqual({ uid: 2000, gid: 2000 });
    expect(qemuIdentityFromEnv({ KV_QEMU_UID: 'root' })).toBeUndefined();
    expect(qemuIdentityFromEnv({ KV_QEMU_UID: '0' })).toBeUndefined();
    expect(() => qemuIdentityFromEnv({ KV_QEMU_UID: 'qemu' })).toThrow(/KV_QEMU_UID must be a numeric id or "root"/);
  });

  it('drops to the identity with no extra groups for a TCG guest', () => {
    const u = decideQemuUser(facts());
    expect(u).toEqual({ drop: true, uid: 107, gid: 107, groups: [] });
    expect(setprivUserArgs(u)).toEqual(['--reuid', '107', '--regid', '107', '--clear-groups']);
  });

  it('keeps root for a post-copy migration target (userfaultfd), saying why', () => {
    expect(decideQemuUser(facts({ allowPostCopy: true }))).toMatchObject({ drop: false, uid: 0, reason: ROOT_REASONS.postcopy, message: expect.stringContaining('userfaultfd') });
  });

  it('changes nothing when the launcher is not root, and keeps root when configured so', () => {
    expect(decideQemuUser(facts({ launcherUid: 1000, allowPostCopy: true }))).toEqual({ drop: false, uid: 1000 });
    expect(decideQemuUser(facts({ identity: undefined }))).toMatchObject({ drop: false, uid: 0, reason: ROOT_REASONS.configured });
    expect(setprivUserArgs(decideQemuUser(facts({ identity: undefined })))).toEqual([]);
  });

  it('KVM: joins /dev/kvm\'s group when the group may use it, keeps root when only root may', () => {
    const kvmGroup = { uid: 0, gid: 993, mode: 0o20660 };
    expect(decideQemuUser(facts({ accel: 'kvm', kvmDevice: kvmGroup }))).toEqual({ drop: true, uid: 107, gid: 107, groups: [993] });
    expect(setprivUserArgs(decideQemuUser(facts({ accel: 'kvm', kvmDevice: kvmGroup })))).toContain('--groups=993');
    expect(decideQemuUser(facts({ accel: 'kvm', kvmDevice: { uid: 0, gid: 0, mode: 0o20666 } }))).toEqual({ drop: true, uid: 107, gid: 107, groups: [] });
    expect(decideQemuUser(facts({ accel: 'kvm', kvmDevice: { uid: 0, gid: 0, mode: 0o20600 } }))).toMatchObject({ drop: false, reason: ROOT_REASONS.kvm });
    expect(decideQemuUser(facts({ accel: 'kvm' }))).toMatchObject({ drop: false, reason: ROOT_REASONS.kvm });
  });

  it('reads permission bits as the kernel does: the owner\'s bits only for the owner', () => {
    expect(accessFor({ uid: 107, gid: 0, mode: 0o077 }, 107, 107, 0o4)).toBe('none');
    expect(accessFor({ uid: 107, gid: 0, mode: 0o700 }, 107, 107, 0o7)).toBe('owner');
    expect(accessFor({ uid: 0, gid: 107, mode: 0o750 }, 107, 107, 0o1)).toBe('group');
    expect(accessFor({ uid: 0, gid: 0, mode: 0o711 }, 107, 107, 0o1)).toBe('other');
    expect(accessFor({ uid: 0, gid: 0, mode: 0o700 }, 107, 107, 0o1)).toBe('none');
  });
});
