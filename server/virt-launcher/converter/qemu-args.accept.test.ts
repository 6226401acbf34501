/** The converter's output is accepted by the real QEMU: render, create the files, start with -S, inspect over QMP. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderQemuArgs, type ImageEntry } from './qemu-args';
import { createDomainFiles } from '../prepare-files';
import { findOvmf } from '../launcher-from-env';
import { QmpClient } from '../qmp-client';
import { spawnQemu } from '../qemu-process';
import type { LauncherVMI } from '../vmi-types';

const root = mkdtempSync(join(tmpdir(), 'kv-accept-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const store = join(root, 'images');
mkdirSync(join(store, 'cirros'), { recursive: true });
mkdirSync(join(store, 'iso'), { recursive: true });
execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', join(store, 'cirros', 'disk.qcow2'), '16M']);
execFileSync('qemu-img', ['create', '-q', '-f', 'raw', join(store, 'iso', 'disk.iso'), '1M']);
const IMAGES: Record<string, ImageEntry> = {
  'quay.io/containerdisks/cirros:latest': { name: 'cirros', dir: join(store, 'cirros'), format: 'qcow2', disk: join(store, 'cirros', 'disk.qcow2') },
  'installer.iso': { name: 'iso', dir: join(store, 'iso'), format: 'iso', disk: join(store, 'iso', 'disk.iso') },
};

const TESTDATA = join(import.meta.dirname, 'testdata');
const load = (name: string) => parse(readFileSync(join(TESTDATA, `${name}.input.yaml`), 'utf8')) as { vmi: LauncherVMI; accel?: 'tcg' };

describe('QEMU accepts the rendered command line', () => {
  it.each([
    ['minimal', 0], ['disk-buses', 7], ['containerdisk-qcow2-bootorder-serial', 2], ['machine-pc-i440fx', 1],
    ['interfaces-models-ports', 0], ['devices-inputs-rng-watchdog', 0], ['firmware-efi', 0], ['firmware-efi-secureboot', 0],
    ['cpu-topology', 0], ['cpu-hotplug-maxsockets', 1], ['cpu-hotplug-after-hotadd', 1], ['memory-hotplug-maxguest', 1], ['memory-hotplug-after-change', 1], ['firmware-uuid-serial', 0], ['emptydisk', 1],
    ['hyperv-clock-tcg', 1], ['clock-timezone', 1], ['devices-sound', 1], ['devices-sound-ac97', 1],
  ])('%s (%i disks)', async (name, disks) => {
    const podDir = mkdtempSync(join(root, 'pod-'));
    let port = 41000 + Math.floor(Math.random() * 10000);
    const out = renderQemuArgs({
      vmi: load(name).vmi, podDir, accel: 'tcg', image: (r) => IMAGES[r], cloudInitMedia: {}, ovmf: findOvmf(),
      allocateHostPort: () => port++,
    });
    await createDomainFiles(out.files);
    const q = spawnQemu({ binary: out.binary, args: out.args, podDir });
    try {
      const qmp = await QmpClient.connect(join(podDir, 'qmp.sock'), { timeoutMs: 10_000 }).catch(async (err) => {
        throw new Error(`${err.message}; ${(await Promise.race([q.exited, new Promise((r) => setTimeout(r, 500))]) as { stderrTail?: string })?.stderrTail ?? ''}`);
      });
      const blocks = await qmp.execute<{ device: string; qdev?: string }[]>('query-block');
      expect(blocks.filter((b) => b.qdev?.includes('ua-')).length).toBe(disks);
      await expect(qmp.execute('query-status')).resolves.toMatchObject({ status: 'prelaunch' });
      qmp.close();
    } finally {
      q.proc.kill('SIGKILL');
      await q.exited;
    }
  });
});
