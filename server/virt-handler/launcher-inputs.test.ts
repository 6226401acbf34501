import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { inputsReadTheApi, MissingInputError, resolveLauncherInputs, type InputReader } from './launcher-inputs';

const b64 = (t: string) => Buffer.from(t).toString('base64');
const text = (b: string) => Buffer.from(b, 'base64').toString();

function reader(secrets: Record<string, Record<string, string>>, configMaps: Record<string, Record<string, string>> = {}): InputReader {
  const enc = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, b64(v)]));
  return {
    secret: async (_ns, name) => (secrets[name] ? enc(secrets[name]) : undefined),
    configMap: async (_ns, name) => (configMaps[name] ? enc(configMaps[name]) : undefined),
    serviceAccountToken: async (ns, name) => ({ token: `token-of-${ns}/${name}`, caCrt: 'CA PEM' }),
  };
}

const vmi = (spec: Record<string, unknown>, labels: Record<string, string> = {}) => ({
  metadata: { name: 'vm', namespace: 'ns1', uid: 'u-1', labels }, spec: { domain: { devices: {} }, ...spec },
}) as unknown as VirtualMachineInstance;

describe('what virt-handler reads for the launcher', () => {
  it('cloud-init user and network data from Secrets, under either key spelling KubeVirt reads', async () => {
    const v = vmi({ volumes: [{ name: 'ci', cloudInitNoCloud: { secretRef: { name: 'ud' }, networkDataSecretRef: { name: 'nd' } } }] });
    const inputs = await resolveLauncherInputs(v, reader({ ud: { userData: '#!/bin/sh\necho hi' }, nd: { networkdata: 'version: 2' } }));
    expect(inputs.cloudInit).toEqual({ ci: { userData: '#!/bin/sh\necho hi', networkData: 'version: 2' } });
  });

  it('a missing Secret or key stops the start with a message naming it', async () => {
    const v = vmi({ volumes: [{ name: 'ci', cloudInitNoCloud: { secretRef: { name: 'ud' } } }] });
    await expect(resolveLauncherInputs(v, reader({}))).rejects.toThrow(new MissingInputError('secret "ud" of cloud-init volume ci not found'));
    await expect(resolveLauncherInputs(v, reader({ ud: { other: 'x' } }))).rejects.toThrow(/no cloud-init data-source found at volume: ci/);
  });

  it('config volumes: every key a file; optional sources may be missing; serviceAccount has token, namespace and ca.crt', async () => {
    const v = vmi({
      volumes: [
        { name: 'cm', configMap: { name: 'app' } }, { name: 'sec', secret: { secretName: 'creds' } },
        { name: 'opt', configMap: { name: 'nothing', optional: true } }, { name: 'sa', serviceAccount: { serviceAccountName: 'robot' } },
        { name: 'd', downwardAPI: { fields: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'app', fieldRef: { fieldPath: "metadata.labels['app']" } }] } },
      ],
    }, { app: 'web', tier: 'front "end"' });
    const { configVolumes } = await resolveLauncherInputs(v, reader({ creds: { password: 's3cret' } }, { app: { 'app.conf': 'x=1' } }));
    const decoded = Object.fromEntries(Object.entries(configVolumes!).map(([k, files]) => [k, Object.fromEntries(Object.entries(files).map(([f, c]) => [f, text(c)]))]));
    expect(decoded).toEqual({
      cm: { 'app.conf': 'x=1' }, sec: { password: 's3cret' }, opt: {},
      sa: { token: 'token-of-ns1/robot', namespace: 'ns1', 'ca.crt': 'CA PEM' },
      d: { labels: 'app="web"\ntier="front \\"end\\""', app: 'web' },
    });
    await expect(resolveLauncherInputs(vmi({ volumes: [{ name: 'cm', configMap: { name: 'gone' } }] }), reader({}))).rejects.toThrow('configmap "gone" of volume cm not found');
  });

  it('SSH keys of accessCredentials go to the cloud-init method they name, every value of the Secret a key', async () => {
    const v = vmi({
      accessCredentials: [
        { sshPublicKey: { source: { secret: { secretName: 'keys' } }, propagationMethod: { noCloud: {} } } },
        { sshPublicKey: { source: { secret: { secretName: 'agent-keys' } }, propagationMethod: { qemuGuestAgent: { users: ['root'] } } } },
      ],
    });
    const inputs = await resolveLauncherInputs(v, reader({ keys: { b: 'ssh-ed25519 BBB b@x\n', a: 'ssh-ed25519 AAA a@x' }, 'agent-keys': { k: 'ssh-rsa ZZZ' } }));
    expect(inputs.sshPublicKeys).toEqual({ noCloud: ['ssh-ed25519 AAA a@x', 'ssh-ed25519 BBB b@x'] });
  });

  it('a VMI that names nothing costs no read', async () => {
    const none: InputReader = { secret: () => { throw new Error('read'); }, configMap: () => { throw new Error('read'); }, serviceAccountToken: () => { throw new Error('read'); } };
    expect(await resolveLauncherInputs(vmi({ volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'ci', cloudInitNoCloud: { userData: 'x' } }] }), none)).toEqual({});
  });

  it('inputsReadTheApi says exactly when resolving reads a Secret, a ConfigMap or a token', async () => {
    const cases = [
      vmi({ volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'ci', cloudInitNoCloud: { userData: 'x' } }] }),
      vmi({ volumes: [{ name: 'd', downwardAPI: { fields: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } }] }),
      vmi({ volumes: [{ name: 'ci', cloudInitConfigDrive: { networkDataSecretRef: { name: 'nd' } } }] }),
      vmi({ volumes: [{ name: 'ci', cloudInitNoCloud: { secretRef: { name: 'ud' } } }] }),
      vmi({ volumes: [{ name: 'cm', configMap: { name: 'app', optional: true } }] }),
      vmi({ volumes: [{ name: 's', secret: { secretName: 'creds', optional: true } }] }),
      vmi({ volumes: [{ name: 'sa', serviceAccount: { serviceAccountName: 'robot' } }] }),
      vmi({ accessCredentials: [{ sshPublicKey: { source: { secret: { secretName: 'keys' } }, propagationMethod: { configDrive: {} } } }] }),
      vmi({ accessCredentials: [{ sshPublicKey: { source: { secret: { secretName: 'keys' } }, propagationMethod: { qemuGuestAgent: { users: ['root'] } } } }] }),
    ];
    const found = { ud: { userData: 'u' }, nd: { networkData: 'n' }, creds: { p: 'x' }, keys: { a: 'ssh-ed25519 AAA a@x' } };
    for (const v of cases) {
      let reads = 0;
      const r = reader(found);
      const counting: InputReader = {
        secret: (ns, n) => { reads++; return r.secret(ns, n); },
        configMap: (ns, n) => { reads++; return r.configMap(ns, n); },
        serviceAccountToken: (ns, n) => { reads++; return r.serviceAccountToken(ns, n); },
      };
      await resolveLauncherInputs(v, counting);
      expect({ volumes: v.spec.volumes, reads: inputsReadTheApi(v) }).toEqual({ volumes: v.spec.volumes, reads: reads > 0 });
    }
  });
});
