/**
 * Golden tests (kwok style): testdata/<case>.input.yaml → testdata/<case>.output.txt, one
 * QEMU argument per line, then the files to create and the status figures (or the error).
 * `UPDATE_GOLDEN=1 npx vitest run server/virt-launcher/qemu-args.golden.test.ts` rewrites them.
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConverterError, renderQemuArgs, type ConverterInput, type ImageEntry } from './qemu-args';
import type { LauncherVMI } from '../vmi-types';
import type { ClaimMount } from './converter-types';

const TESTDATA = join(import.meta.dirname, 'testdata');
const POD_DIR = '/var/lib/kv/nodes/node-1/pods/pod-uid-1';
const STORE = '/var/lib/kv/images';
const IMAGES: Record<string, ImageEntry> = {
  'quay.io/containerdisks/cirros:latest': { name: 'quay.io/containerdisks/cirros:latest', dir: `${STORE}/quay.io_containerdisks_cirros_latest`, format: 'qcow2', disk: `${STORE}/quay.io_containerdisks_cirros_latest/disk.qcow2` },
  demo: { name: 'demo', dir: `${STORE}/demo`, format: 'raw', disk: `${STORE}/demo/disk.img`, kernel: `${STORE}/demo/vmlinuz`, initrd: `${STORE}/demo/initrd.gz`, cmdline: 'console=ttyS0 quiet' },
  'kernel-only': { name: 'kernel-only', dir: `${STORE}/kernel-only`, format: 'raw', kernel: `${STORE}/kernel-only/vmlinuz`, initrd: `${STORE}/kernel-only/initrd.gz` },
  'installer.iso': { name: 'installer.iso', dir: `${STORE}/installer.iso`, format: 'iso', disk: `${STORE}/installer.iso/disk.iso` },
};
const OVMF = {
  code: '/usr/share/OVMF/OVMF_CODE_4M.fd', vars: '/usr/share/OVMF/OVMF_VARS_4M.fd',
  secureBootCode: '/usr/share/OVMF/OVMF_CODE_4M.secboot.fd', secureBootVars: '/usr/share/OVMF/OVMF_VARS_4M.ms.fd',
};

interface GoldenInput {
  vmi: LauncherVMI; accel?: 'kvm' | 'tcg'; noOvmf?: boolean; incoming?: boolean; now?: string;
  cloudInitMedia?: Record<string, string>; claims?: Record<string, ClaimMount>;
  /** page size → hugetlbfs mount on the test's node */
  hugetlbfs?: Record<string, string>;
}

function toInput(g: GoldenInput): ConverterInput {
  let nextPort = 40000;
  return {
    vmi: g.vmi, podDir: POD_DIR, accel: g.accel ?? 'tcg', image: (ref) => IMAGES[ref],
    cloudInitMedia: g.cloudInitMedia ?? {}, ovmf: g.noOvmf ? undefined : OVMF, incoming: g.incoming,
    allocateHostPort: () => nextPort++, claim: (name) => g.claims?.[name], hugepagesMount: (size) => g.hugetlbfs?.[size], now: new Date(g.now ?? '2026-01-15T12:00:00Z'),
  };
}

function renderGolden(g: GoldenInput): string {
  try {
    const out = renderQemuArgs(toInput(g));
    return [
      '# binary', out.binary, '# args', ...out.args,
      '# files', ...out.files.map((f) => JSON.stringify(f)),
      '# status', `machine: ${out.machine}`, `vcpus: ${out.vcpus}`, `memoryBytes: ${out.memoryBytes}`,
      ...out.interfaces.map((i) => `interface: ${JSON.stringify(i)}`), ...out.hostPorts.map((p) => `hostPort: ${JSON.stringify(p)}`),
      ...(out.tpm ? [`tpm: ${JSON.stringify(out.tpm)}`] : []),
    ].join('\n') + '\n';
  } catch (err) {
    if (!(err instanceof ConverterError)) throw err;
    return `# error\n${err.reason}: ${err.message}\n`;
  }
}

const cases = readdirSync(TESTDATA).filter((f) => f.endsWith('.input.yaml')).map((f) => f.replace(/\.input\.yaml$/, '')).sort();

describe('renderQemuArgs golden files', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(20));
  it.each(cases)('%s', (name) => {
    const actual = renderGolden(parse(readFileSync(join(TESTDATA, `${name}.input.yaml`), 'utf8')) as GoldenInput);
    const goldenPath = join(TESTDATA, `${name}.output.txt`);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(goldenPath, actual);
    expect(existsSync(goldenPath), `missing ${goldenPath}; run with UPDATE_GOLDEN=1`).toBe(true);
    expect(actual).toBe(readFileSync(goldenPath, 'utf8'));
  });
});
