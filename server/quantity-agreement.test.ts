/**
 * One table of quantities fed to every consumer: admission's memory validation, virt-controller's
 * launcher Pod sizing, the launcher's QEMU converter and the shared parser must agree on what is a
 * quantity and what it is worth (once, `memory: .5Gi` passed admission and Pod sizing and then the
 * launcher refused it).
 */
import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../lib/kubevirt/quantity';
import { withAdmissionDefaults } from './virt-api/admission/admission-config';
import { validateVMICreate } from './virt-api/admission/validators/vmi-validator';
import { guestMemoryBytes } from './virt-controller/vmi/launcher-pod-resources';
import { resolveMemoryBytes } from './virt-launcher/converter/qemu-args-compute';
import type { ConverterInput } from './virt-launcher/converter/converter-types';

const MI = 2 ** 20;
// [quantity, bytes it is worth, or undefined when no consumer may accept it]
const TABLE: [string, number | undefined][] = [
  ['64Mi', 64 * MI],
  ['.5Gi', 512 * MI],
  ['0.5Gi', 512 * MI],
  ['1.5Gi', 1536 * MI],
  ['1Gi', 1024 * MI],
  ['128M', 128e6],
  ['1e8', 1e8],
  ['1E8', 1e8],
  ['2e+8', 2e8],
  ['100000k', 1e8],
  ['134217728', 134217728],
  ['+64Mi', 64 * MI],
  ['1Gb', undefined],
  ['1gi', undefined],
  ['Gi', undefined],
  ['', undefined],
  ['1.2.3Mi', undefined],
  ['64 Mi', undefined],
  ['0x10Mi', undefined],
];

const vmiWith = (guest: string) => ({ metadata: { name: 'v', namespace: 'default' }, spec: { domain: { devices: {}, memory: { guest }, resources: { requests: { memory: guest } } } } });

function launcherBytes(guest: string): number | undefined {
  try {
    return resolveMemoryBytes({ vmi: vmiWith(guest) } as unknown as ConverterInput);
  } catch {
    return undefined;
  }
}

describe.each(TABLE)('%s', (q, bytes) => {
  it('the shared parser', () => {
    expect(parseQuantity(q)).toBe(bytes);
  });

  it('admission accepts exactly the valid ones', () => {
    const causes = validateVMICreate({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', ...vmiWith(q) }, { config: withAdmissionDefaults({}) });
    expect(causes.length === 0 ? 'accepted' : causes.map((c) => c.message).join('; ')).toEqual(bytes === undefined ? expect.stringMatching(/quantities must match the regular expression/) : 'accepted');
  });

  it('virt-controller sizes the launcher Pod for the same bytes', () => {
    if (bytes === undefined) return; // admission refused it: no Pod is ever sized for it
    expect(guestMemoryBytes(vmiWith(q) as never)).toBe(bytes);
  });

  it('the launcher gives QEMU the same bytes', () => {
    expect(launcherBytes(q)).toBe(bytes === undefined ? undefined : Math.ceil(bytes));
  });
});
