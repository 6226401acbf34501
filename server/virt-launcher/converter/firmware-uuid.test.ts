import { describe, expect, it } from 'vitest';
import { planCloudInitMedia } from './cloud-init';
import { firmwareUUID, renderIdentityArgs } from './qemu-args-firmware';
import type { ConverterInput } from './converter-types';
import type { LauncherVMI } from '../protocol';

const vmi = (firmware: { uuid?: string } | undefined, uid = '6F9E2B0A-1C2D-4E5F-8A9B-0C1D2E3F4A5B'): LauncherVMI => ({
  metadata: { name: 'v', namespace: 'ns', uid },
  spec: { domain: { devices: {}, ...(firmware ? { firmware } : {}) }, volumes: [{ name: 'ci', cloudInitConfigDrive: { userData: '#cloud-config' } }] },
} as unknown as LauncherVMI);

describe('the firmware UUID: one rule for QEMU and cloud-init', () => {
  it.each([
    ['firmware.uuid wins', vmi({ uuid: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE' }), 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee'],
    ['else the VMI uid', vmi(undefined), '6f9e2b0a-1c2d-4e5f-8a9b-0c1d2e3f4a5b'],
  ])('%s, and the guest sees the same UUID in SMBIOS and in its cloud-init meta-data', (_n, v, want) => {
    expect(firmwareUUID(v)).toBe(want);
    const args = renderIdentityArgs({ vmi: v } as ConverterInput);
    expect(args[args.indexOf('-uuid') + 1]).toBe(want);
    const [plan] = planCloudInitMedia(v, '/pod');
    expect(JSON.parse(plan.metaData).uuid).toBe(want);
  });
});
