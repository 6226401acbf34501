/**
 * scripts/demo-image/install-modules.sh on a fake kernel module tree: which modules reach the demo
 * initramfs, in which load order, and what happens to a module the kernel does not have.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/demo-image/install-modules.sh', import.meta.url));
let work: string;

/** a .ko whose modinfo section says what it depends on (the script reads only `depends=`) */
function fakeModule(path: string, depends: string[]): void {
  const file = join(work, 'mods', path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, Buffer.from(`\x7fELF\0name=${path}\0depends=${depends.join(',')}\0vermagic=6.1.0\0`, 'binary'));
}

function install(wanted: string): { status: number | null; stderr: string } {
  writeFileSync(join(work, 'modules.txt'), wanted);
  const r = spawnSync('sh', [SCRIPT, join(work, 'mods'), join(work, 'modules.txt'), join(work, 'out')], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

const loadOrder = (stage: string) => readFileSync(join(work, 'out', `load-order.${stage}`), 'utf8').trim().split('\n');

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'demo-modules-'));
  // Debian's standard kernel: sd_mod needs t10-pi, whose file and depends= entry use a dash
  fakeModule('kernel/drivers/scsi/scsi_common.ko', []);
  fakeModule('kernel/drivers/scsi/scsi_mod.ko', ['scsi_common']);
  fakeModule('kernel/block/t10-pi.ko', []);
  fakeModule('kernel/drivers/scsi/sd_mod.ko', ['scsi_mod', 't10-pi']);
  fakeModule('kernel/drivers/watchdog/watchdog.ko', []);
  fakeModule('kernel/drivers/watchdog/i6300esb.ko', ['watchdog']);
  fakeModule('kernel/fs/efivarfs/efivarfs.ko', []);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('install-modules.sh', () => {
  it('copies each wanted module after its dependencies, also those named with a dash', () => {
    const r = install('# comment\nboot sd_mod\nefi efivarfs\nwatchdog i6300esb optional\n');
    expect(r.status).toBe(0);
    expect(loadOrder('boot')).toEqual([
      'kernel/drivers/scsi/scsi_common.ko', 'kernel/drivers/scsi/scsi_mod.ko', 'kernel/block/t10-pi.ko', 'kernel/drivers/scsi/sd_mod.ko',
    ]);
    expect(loadOrder('efi')).toEqual(['kernel/fs/efivarfs/efivarfs.ko']);
    expect(loadOrder('watchdog')).toEqual(['kernel/drivers/watchdog/watchdog.ko', 'kernel/drivers/watchdog/i6300esb.ko']);
    expect(existsSync(join(work, 'out', 'kernel/block/t10-pi.ko'))).toBe(true);
  });

  it('leaves out an optional module the kernel does not have (the cloud kernel has no i6300esb)', () => {
    rmSync(join(work, 'mods', 'kernel/drivers/watchdog/i6300esb.ko'));
    const r = install('boot efivarfs\nwatchdog i6300esb optional\n');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('no module i6300esb (optional)');
    expect(existsSync(join(work, 'out', 'load-order.watchdog'))).toBe(false);
    expect(loadOrder('boot')).toEqual(['kernel/fs/efivarfs/efivarfs.ko']);
  });

  it('fails on a required module the kernel does not have', () => {
    const r = install('boot ahci\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('install-modules: no module ahci');
  });

  it('the shipped modules.txt names efivarfs (efi stage) and i6300esb (optional)', () => {
    const lines = execFileSync('grep', ['-v', '^#', fileURLToPath(new URL('../../scripts/demo-image/modules.txt', import.meta.url))], { encoding: 'utf8' }).split('\n');
    expect(lines).toContain('efi efivarfs');
    expect(lines).toContain('watchdog i6300esb optional');
  });
});
