import { afterEach, describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { LauncherConnections } from './launcher-connections';
import { resolveLauncherInputs, type InputReader } from './launcher-inputs';
import { observeLauncher } from './observe-launcher';
import { FakeLauncher } from './testing/fake-launcher';

const vmi = {
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
  metadata: { name: 'v', namespace: 'default', uid: 'uid-1' },
  spec: { domain: { devices: {} }, volumes: [{ name: 'sa', serviceAccount: { serviceAccountName: 'default' } }] },
} as unknown as VirtualMachineInstance;

/** an InputReader that counts the TokenRequests it would send */
function countingReader(): InputReader & { tokenRequests: number } {
  const r = {
    tokenRequests: 0,
    secret: async () => undefined,
    configMap: async () => undefined,
    serviceAccountToken: async () => { r.tokenRequests++; return { token: 't' }; },
  };
  return r;
}

let launcher: FakeLauncher | undefined;
const open: LauncherConnections[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) c.closeAll();
  await launcher?.stop();
});

/** one virt-handler process's view: its own connections, the first sync of this VMI */
async function handlerSyncs(reader: InputReader): Promise<void> {
  const conns = new LauncherConnections(() => undefined);
  open.push(conns);
  const seen = await observeLauncher(conns, launcher!.podDir, 'default/v', vmi, undefined, (v) => resolveLauncherInputs(v, reader));
  expect(seen.syncError).toBeUndefined();
  expect(seen.domain?.vmiUID).toBe('uid-1');
}

describe('observeLauncher: launcher inputs only when the launcher will use them', () => {
  it('reads them (one TokenRequest) for a launcher without a domain, and not again after a handler restart', async () => {
    launcher = await new FakeLauncher().start();
    launcher.hasDomain = false;
    const reader = countingReader();
    await handlerSyncs(reader);
    expect(reader.tokenRequests).toBe(1);
    await handlerSyncs(reader); // virt-handler restarted: a new connection to the running launcher
    await handlerSyncs(reader);
    expect(reader.tokenRequests).toBe(1);
    expect(launcher.commands.filter((c) => c === 'sync')).toHaveLength(3);
  });

  it('reads them when the running domain belongs to another VMI (sync then refuses it)', async () => {
    launcher = await new FakeLauncher().start();
    launcher.domain = { ...launcher.domain, vmiUID: 'someone-else' };
    const reader = countingReader();
    const conns = new LauncherConnections(() => undefined);
    open.push(conns);
    await observeLauncher(conns, launcher.podDir, 'default/v', vmi, undefined, (v) => resolveLauncherInputs(v, reader));
    expect(reader.tokenRequests).toBe(1);
  });
});

describe('observeLauncher: the first sync of a VMI whose inputs read nothing', () => {
  it('goes to a fresh launcher without a status round trip first, and starts its domain', async () => {
    launcher = await new FakeLauncher().start();
    launcher.hasDomain = false;
    const conns = new LauncherConnections(() => undefined);
    open.push(conns);
    const plain = { ...vmi, spec: { ...vmi.spec, volumes: [{ name: 'disk', containerDisk: { image: 'demo' } }] } } as unknown as VirtualMachineInstance;
    const seen = await observeLauncher(conns, launcher.podDir, 'default/v', plain, undefined, (v) => resolveLauncherInputs(v, countingReader()));
    expect(seen.syncError).toBeUndefined();
    expect(seen.domain?.vmiUID).toBe('uid-1');
    expect(launcher.commands).toEqual(['sync']);
  });
});
