/**
 * A VM with a persistent TPM on a `kv up` cluster (run with KV_POD_NETWORK=0 on a shared machine):
 * virt-controller creates its backend storage claim (owned by the VM, the default class), the
 * launcher runs swtpm with its state in that claim, the guest sees a TPM 2.0, and the TPM's
 * non-volatile state carries over a stop/start: the reset count the guest reads from /dev/tpm0
 * (TPM2_ReadClock) goes on instead of starting over; the VMI is not live-migratable on
 * ReadWriteOnce backend storage. A VM with persistent EFI variables (secure boot on, the default): the
 * guest (booted by OVMF, which starts the demo kernel's EFI stub) writes a variable through efivarfs,
 * and reads it back after a stop/start.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callAction, isRunning } from './support/lifecycle-table';
import { callRest, until } from './support/rest';
import { createVM, demoVM, NS, readState, readVMI } from './support/vm-fixtures';
import { openGuestShell } from './support/guest-shell';

const BOOT_MS = 150_000;
const VM = 'tpm-vm';
const EFI_VM = 'efi-vm';
/** a variable of our own vendor GUID in efivarfs (the demo guest mounts it when booted by EFI) */
const EFI_VAR = '/sys/firmware/efi/efivars/KubevirtTsTest-2b5d3f0e-6c1a-4f7e-9a55-1f0c7e3a9d21';
let c: LifecycleCluster;

beforeAll(async () => { c = await startLifecycleCluster({ nodes: 1 }); }, 240_000);
afterAll(async () => { await c?.stop(); });

/** the swtpm state file in the claim's directory on the node (the storage component's local path) */
function permallFile(dataDir: string): string | undefined {
  const out = execFileSync('find', [dataDir, '-name', 'tpm2-00.permall', '-path', '*swtpm*', '-not', '-path', '*/pods/*'], { encoding: 'utf8' }).trim();
  return out.split('\n').find((l) => l !== '');
}

/** TPM2_ReadClock from inside the guest (busybox: raw command bytes to /dev/tpm0); the TPM's reset count */
async function guestResetCount(): Promise<number> {
  const shell = await openGuestShell(c.admin, NS, VM);
  try {
    expect(await shell.run('cat /sys/class/tpm/tpm0/tpm_version_major')).toBe('2');
    // the command must reach the driver in one write(): dd from a file, then one read of the response
    const hex = await shell.run("printf '\\200\\001\\000\\000\\000\\012\\000\\000\\001\\201' > /tmp/readclock; exec 3<>/dev/tpm0; dd if=/tmp/readclock bs=10 count=1 >&3 2>/dev/null; dd bs=4096 count=1 <&3 2>/dev/null | od -An -tx1; exec 3>&-");
    const bytes = hex.split(/\s+/).filter((b) => /^[0-9a-f]{2}$/.test(b)).map((b) => parseInt(b, 16));
    expect(bytes.slice(6, 10)).toEqual([0, 0, 0, 0]); // TPM_RC_SUCCESS
    return Buffer.from(bytes).readUInt32BE(26);
  } finally {
    shell.close();
  }
}

interface VMIRead { metadata: { uid: string }; status: { conditions: { type: string; status: string; reason?: string; message?: string }[] } }

async function runningVMI(): Promise<VMIRead> {
  await until('the VM to run', async () => isRunning(await readState(c.admin, VM)), BOOT_MS);
  return readVMI(c.admin, VM);
}

async function stopped(): Promise<void> {
  expect((await callAction(c.admin, VM, 'stop')).status).toBe(202);
  await until('the VM to stop', async () => (await readState(c.admin, VM)).vmiUID === undefined, 90_000);
}

describe('persistent TPM (backend storage)', () => {
  it('keeps the TPM state across a stop/start in the VM\'s persistent-state-for-<vm> claim', async () => {
    const vm = demoVM(VM, { runStrategy: 'Always' });
    (vm.spec.template.spec.domain.devices as Record<string, unknown>).tpm = { persistent: true };
    const created = await createVM(c.admin, vm);
    const vmi = await runningVMI();

    const pvc = (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims/persistent-state-for-${VM}`)).body;
    expect(pvc.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'VirtualMachine', name: VM, uid: created.metadata.uid })]);
    expect(pvc.spec).toMatchObject({ accessModes: ['ReadWriteOnce'], storageClassName: 'local', volumeMode: 'Filesystem' });
    const migratable = vmi.status.conditions.find((x) => x.type === 'LiveMigratable');
    expect(migratable).toMatchObject({ status: 'False', reason: 'DisksNotLiveMigratable', message: 'cannot migrate VMI: Backend storage PVC is not RWX' });

    await until('swtpm state in the claim', () => permallFile(c.cluster.dataDir), 30_000);
    const first = await guestResetCount();
    await stopped();

    expect((await callAction(c.admin, VM, 'start')).status).toBe(202);
    const second = await runningVMI();
    expect(second.metadata.uid).not.toBe(vmi.metadata.uid);
    // the same TPM: a fresh one would count resets from the start again (the same number as the first boot)
    expect(await guestResetCount()).toBeGreaterThan(first);
    // and the same claim, not a new one
    expect((await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims/persistent-state-for-${VM}`)).body.metadata.uid).toBe(pvc.metadata.uid);
  }, 600_000);
});

describe('persistent EFI variables (backend storage)', () => {
  /** what the guest reads back of the variable: its data after the 4 attribute bytes, or "none" */
  async function readVar(shell: Awaited<ReturnType<typeof openGuestShell>>): Promise<string> {
    return shell.run(`if [ -e ${EFI_VAR} ]; then tail -c +5 ${EFI_VAR}; else echo none; fi`);
  }

  it('a variable the guest writes through efivarfs is there after a stop/start', async () => {
    const vm = demoVM(EFI_VM, { runStrategy: 'Always' });
    const domain = vm.spec.template.spec.domain as Record<string, unknown>;
    // secure boot unset: on, KubeVirt's default on amd64, which needs SMM
    domain.firmware = { bootloader: { efi: { persistent: true } } };
    domain.features = { smm: { enabled: true } };
    // OVMF loading the demo kernel and its 10 MB initrd through fw_cfg runs out of memory at 128 MiB
    domain.memory = { guest: '256Mi' };
    await createVM(c.admin, vm);
    await until('the VM to run', async () => isRunning(await readState(c.admin, EFI_VM)), BOOT_MS);
    const first = (await readVMI(c.admin, EFI_VM)).metadata.uid;

    let shell = await openGuestShell(c.admin, NS, EFI_VM);
    try {
      expect(await shell.run('grep -c " /sys/firmware/efi/efivars efivarfs " /proc/mounts')).toBe('1');
      // SecureBoot (EFI global variable GUID): attributes, then 1
      expect(await shell.run('od -An -tx1 /sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c')).toBe('06 00 00 00 01');
      expect(await readVar(shell)).toBe('none');
      // attributes NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS, then the data, in one write()
      await shell.run(`printf '\\007\\000\\000\\000kubevirt-ts' > /tmp/var; dd if=/tmp/var of=${EFI_VAR} bs=64 2>/dev/null`);
      expect(await readVar(shell)).toBe('kubevirt-ts');
    } finally {
      shell.close();
    }

    expect((await callAction(c.admin, EFI_VM, 'stop')).status).toBe(202);
    await until('the VM to stop', async () => (await readState(c.admin, EFI_VM)).vmiUID === undefined, 90_000);
    expect((await callAction(c.admin, EFI_VM, 'start')).status).toBe(202);
    await until('the VM to run again', async () => isRunning(await readState(c.admin, EFI_VM)), BOOT_MS);
    expect((await readVMI(c.admin, EFI_VM)).metadata.uid).not.toBe(first);

    shell = await openGuestShell(c.admin, NS, EFI_VM);
    try {
      expect(await readVar(shell)).toBe('kubevirt-ts');
    } finally {
      shell.close();
    }
  }, 600_000);
});
