import { describe, expect, it } from 'vitest';
import { validateAccessCredentials } from './access-credentials-validator';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

const spec = (accessCredentials: unknown[], volumes: unknown[] = []) => ({ domain: { devices: {} }, volumes, accessCredentials }) as unknown as VirtualMachineInstanceSpec;
const secret = { secret: { secretName: 's' } };
const messages = (s: VirtualMachineInstanceSpec) => validateAccessCredentials(s, 'spec').map((c) => `${c.field}: ${c.message}`);

describe("KubeVirt's accessCredentials rules", () => {
  it('accepts an agent-propagated key and a password', () => {
    expect(messages(spec([
      { sshPublicKey: { source: secret, propagationMethod: { qemuGuestAgent: { users: ['root'] } } } },
      { userPassword: { source: secret, propagationMethod: { qemuGuestAgent: {} } } },
    ]))).toEqual([]);
  });

  it.each([
    [{ sshPublicKey: { source: secret, propagationMethod: { qemuGuestAgent: { users: [] } } } }, 'spec.accessCredentials[0].sshPublicKey.propagationMethod.qemuGuestAgent.users: spec.accessCredentials[0] requires at least one user to be present in the users list'],
    [{ sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } } }, 'spec.accessCredentials[0].sshPublicKey.propagationMethod: spec.accessCredentials[0] requires a noCloud volume to exist when the noCloud propagationMethod is in use.'],
    [{ sshPublicKey: { source: {}, propagationMethod: { qemuGuestAgent: { users: ['root'] } } } }, 'spec.accessCredentials[0].sshPublicKey.source: spec.accessCredentials[0] must have exactly one source set'],
    [{ sshPublicKey: { source: secret, propagationMethod: {} } }, 'spec.accessCredentials[0].sshPublicKey.propagationMethod: spec.accessCredentials[0] must have exactly one propagationMethod set'],
    [{}, 'spec.accessCredentials[0]: spec.accessCredentials[0] must have exactly one access credential type set'],
  ])('refuses %j', (cred, want) => {
    expect(messages(spec([cred]))).toContain(want);
  });

  it('a noCloud key with a noCloud volume passes', () => {
    expect(messages(spec([{ sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } } }], [{ name: 'ci', cloudInitNoCloud: { userData: 'x' } }]))).toEqual([]);
  });
});
