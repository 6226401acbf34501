import { describe, expect, it } from 'vitest';
import { checkLauncherVMI } from './vmi-types';

describe('the launcher checks the VMI it is handed', () => {
  it('accepts a VMI the converter can read', () => {
    expect(checkLauncherVMI({ metadata: { name: 'v' }, spec: { domain: { devices: {} }, volumes: [{ name: 'a', containerDisk: { image: 'demo' } }] } })).toBeUndefined();
  });

  it.each([
    [null, 'the VMI is not an object'],
    [[], 'the VMI is not an object'],
    [{ spec: { domain: {} } }, 'metadata.name must be a non-empty string'],
    [{ metadata: { name: 'v' } }, 'spec must be an object'],
    [{ metadata: { name: 'v' }, spec: { domain: 'x' } }, 'spec.domain must be an object'],
    [{ metadata: { name: 'v' }, spec: { domain: {}, volumes: {} } }, 'spec.volumes must be a list of named objects'],
    [{ metadata: { name: 'v' }, spec: { domain: {}, networks: [{}] } }, 'spec.networks must be a list of named objects'],
    [{ metadata: { name: 'v' }, spec: { domain: { devices: [] } } }, 'spec.domain.devices must be an object'],
  ])('refuses %j: %s', (vmi, reason) => {
    expect(checkLauncherVMI(vmi)).toBe(reason);
  });
});
