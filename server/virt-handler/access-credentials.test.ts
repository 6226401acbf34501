import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { AccessCredentialSync, keysIn, resolveCredentials } from './access-credentials';
import type { AccessCredentials } from '../virt-launcher/protocol';

function vmi(accessCredentials: unknown[]): VirtualMachineInstance {
  return { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'v', namespace: 'ns' }, spec: { domain: { devices: {} }, accessCredentials } } as unknown as VirtualMachineInstance;
}
const sshCred = (secretName: string, users: string[]) => ({ sshPublicKey: { source: { secret: { secretName } }, propagationMethod: { qemuGuestAgent: { users } } } });
const secrets: Record<string, Record<string, string>> = {
  keys: { b: 'ssh-ed25519 BBB b@x\n', a: '# comment\nssh-rsa AAA a@x\n\nssh-ed25519 CCC c@x' },
  pw: { root: 's3cret' },
};
const read = async (_ns: string, name: string) => {
  const s = secrets[name];
  if (!s) throw new Error(`secrets "${name}" not found`);
  return s;
};

describe('accessCredentials through the guest agent', () => {
  it('takes one key per line, skipping comments and blanks', () => {
    expect(keysIn('# c\n ssh-rsa A x \n\nssh-ed25519 B y')).toEqual(['ssh-rsa A x', 'ssh-ed25519 B y']);
  });

  it("gives each listed user every key of the Secret (sorted by data key), and the passwords", async () => {
    const creds = await resolveCredentials(vmi([sshCred('keys', ['root', 'demo']), { userPassword: { source: { secret: { secretName: 'pw' } }, propagationMethod: { qemuGuestAgent: {} } } }]), read);
    expect(creds).toEqual({
      authorizedKeys: [
        { user: 'root', keys: ['ssh-rsa AAA a@x', 'ssh-ed25519 CCC c@x', 'ssh-ed25519 BBB b@x'] },
        { user: 'demo', keys: ['ssh-rsa AAA a@x', 'ssh-ed25519 CCC c@x', 'ssh-ed25519 BBB b@x'] },
      ],
      passwords: [{ user: 'root', password: 's3cret' }],
    });
  });

  it('applies once the agent is connected, reports the condition, and applies again only when the keys change or the agent reconnects', async () => {
    const applied: AccessCredentials[] = [];
    const changed: string[] = [];
    const sync = new AccessCredentialSync(read, async (_d, _k, c) => { applied.push(c); }, (k) => changed.push(k));
    const v = vmi([sshCred('keys', ['root'])]);
    expect(sync.observe(v, '/pod', 'ns/v', false)).toBeUndefined();
    expect(applied).toHaveLength(0);
    sync.observe(v, '/pod', 'ns/v', true);
    await new Promise((r) => setTimeout(r, 10));
    expect(applied).toHaveLength(1);
    expect(changed).toEqual(['ns/v']);
    expect(sync.observe(v, '/pod', 'ns/v', true)).toMatchObject({ type: 'AccessCredentialsSynchronized', status: 'True', reason: 'AccessCredentialsSyncSuccess' });
    sync.observe(v, '/pod', 'ns/v', false);
    sync.observe(v, '/pod', 'ns/v', true); // the agent came back: apply again
    await new Promise((r) => setTimeout(r, 10));
    expect(applied).toHaveLength(2);
  });

  it('a missing Secret or a failing agent is AccessCredentialsSynchronized=False with the reason', async () => {
    const changed: string[] = [];
    const sync = new AccessCredentialSync(read, async () => { throw new Error('guest agent did not answer'); }, (k) => changed.push(k));
    const missing = vmi([sshCred('nope', ['root'])]);
    sync.observe(missing, '/a', 'ns/a', true);
    await new Promise((r) => setTimeout(r, 10));
    expect(sync.observe(missing, '/a', 'ns/a', true)).toMatchObject({ status: 'False', reason: 'AccessCredentialsSyncFailed', message: 'secrets "nope" not found' });
    const agentDown = vmi([sshCred('keys', ['root'])]);
    sync.observe(agentDown, '/b', 'ns/b', true);
    await new Promise((r) => setTimeout(r, 10));
    expect(sync.observe(agentDown, '/b', 'ns/b', true)).toMatchObject({ status: 'False', message: 'guest agent did not answer' });
    expect(changed).toEqual(['ns/a', 'ns/b']);
  });

  it('reports no condition for keys propagated through cloud-init (they are written into the media at boot, as in KubeVirt)', () => {
    const sync = new AccessCredentialSync(read, async () => undefined, () => undefined);
    const v = vmi([{ sshPublicKey: { source: { secret: { secretName: 'keys' } }, propagationMethod: { noCloud: {} } } }]);
    expect(sync.observe(v, '/c', 'ns/c', true)).toBeUndefined();
  });
});
