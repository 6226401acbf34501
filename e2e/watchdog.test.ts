/**
 * An i6300ESB watchdog on a `kv up` cluster (run with KV_POD_NETWORK=0 on a shared machine), as
 * KubeVirt's conformance test test_id:4641 does it: log in on the serial console, arm the watchdog
 * with busybox's `watchdog` applet and kill it without the magic close, so the timer runs out.
 * `action: poweroff` ends the VMI Failed within 40 s; `action: reset` reboots the guest while the
 * VMI stays Running. The demo guest's cloud kernel has no i6300esb driver, so this file runs on the
 * "demo-watchdog" variant (Debian's standard kernel; scripts/setup.sh builds it, beforeAll builds it
 * if missing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoImage, WATCHDOG_DEMO_KERNEL_PACKAGE, watchdogDemoBuildDir } from '../server/images/demo-build';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, subresource, until, VMIS } from './support/rest';
import { NS, readVMI } from './support/vm-fixtures';
import { openGuestShell } from './support/guest-shell';
import { openStream, readUntil } from './support/streams';

const BOOT_MS = 150_000;
/** KubeVirt's bound in test_id:4641: Failed within 40 s of the watchdog's expiry */
const FAILED_WITHIN_MS = 40_000;
const ARM_AND_KILL = 'watchdog -t 2000ms -T 4000ms /dev/watchdog && sleep 5 && killall -9 watchdog';
let c: LifecycleCluster;

beforeAll(async () => {
  const buildDir = await buildDemoImage({ buildDir: watchdogDemoBuildDir(), kernelPackage: WATCHDOG_DEMO_KERNEL_PACKAGE, quiet: true });
  c = await startLifecycleCluster({ nodes: 1, env: { KV_DEMO_IMAGE_DIR: buildDir } });
}, 420_000);
afterAll(async () => { await c?.stop(); });

function watchdogVMI(name: string, action: 'poweroff' | 'reset') {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
    spec: {
      terminationGracePeriodSeconds: 0,
      domain: {
        memory: { guest: '128Mi' },
        devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }], watchdog: { name: 'w', i6300esb: { action } } },
      },
      volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
    },
  };
}

async function runningVMI(name: string, action: 'poweroff' | 'reset'): Promise<{ metadata: { uid: string } }> {
  const res = await callRest(c.admin, 'POST', VMIS(NS), watchdogVMI(name, action));
  expect(res.status).toBe(201);
  return until(`${name} to run`, async () => {
    const vmi = await readVMI(c.admin, name);
    return vmi?.status?.phase === 'Running' ? vmi : undefined;
  }, BOOT_MS);
}

/** logs in, sees /dev/watchdog, arms it and kills the daemon: the timer runs out 4 s later (returns then) */
async function expireWatchdog(name: string): Promise<number> {
  const shell = await openGuestShell(c.admin, NS, name);
  try {
    expect(await shell.run('ls /dev/watchdog')).toBe('/dev/watchdog');
    // the kernel may print "watchdog did not stop!" on the console too
    expect(await shell.run(`${ARM_AND_KILL}; echo rc=$?`)).toMatch(/^rc=0$/m);
    return Date.now();
  } finally {
    shell.close();
  }
}

describe('i6300esb watchdog (KubeVirt test_id:4641)', () => {
  it('action poweroff: the VMI is Failed within 40 s once the watchdog expires', async () => {
    await runningVMI('wd-poweroff', 'poweroff');
    const killed = await expireWatchdog('wd-poweroff');
    const failed = await until('the VMI to fail', async () => {
      const vmi = await readVMI(c.admin, 'wd-poweroff');
      return vmi?.status?.phase === 'Failed' ? Date.now() : undefined;
    }, FAILED_WITHIN_MS);
    console.log(`watchdog poweroff: VMI Failed ${((failed - killed) / 1000).toFixed(1)} s after the watchdog daemon was killed`);
    expect(failed - killed).toBeLessThan(FAILED_WITHIN_MS);
  }, 300_000);

  it('action reset: the guest boots again and the VMI stays Running', async () => {
    const vmi = await runningVMI('wd-reset', 'reset');
    const killed = await expireWatchdog('wd-reset');
    // a second boot on the serial console (which does not replay what was before): getty's banner and prompt
    const serial = await openStream(c.admin, subresource(NS, 'virtualmachineinstances', 'wd-reset', 'console'));
    if (!serial.ws) throw new Error(`console: ${serial.status} ${serial.body}`);
    try {
      await readUntil(serial.ws, (t) => /demo guest: log in as root[\s\S]*demo login: $/.test(t), { timeoutMs: BOOT_MS });
    } finally {
      serial.ws.close();
    }
    const shell = await openGuestShell(c.admin, NS, 'wd-reset');
    try {
      const uptime = Number((await shell.run('cut -d. -f1 /proc/uptime')).trim());
      expect(uptime).toBeLessThanOrEqual((Date.now() - killed) / 1000);
    } finally {
      shell.close();
    }
    const after = await readVMI(c.admin, 'wd-reset');
    expect(after.metadata.uid).toBe(vmi.metadata.uid);
    expect(after.status.phase).toBe('Running');
  }, 400_000);
});
