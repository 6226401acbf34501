import { describe, expect, it } from 'vitest';
import { validateVMISpec } from './vmi-spec-validator';
import type { AdmissionConfig } from '../admission-config';

const config = { featureGates: [] } as unknown as AdmissionConfig;
/** a VMI spec as test data: loose JSON on purpose (admission sees untyped bodies) */
interface Spec { domain: { memory: Record<string, unknown>; devices: Record<string, unknown> & { disks: object[] }; launchSecurity?: object }; volumes: object[]; networks?: object[] }
const spec = (patch: (s: Spec) => void) => {
  const s: Spec = { domain: { memory: { guest: '64Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] };
  patch(s);
  return s;
};
const refusals = (s: Spec) => validateVMISpec(s, 'spec', config).filter((c) => c.type === 'FieldValueForbidden');

describe('fields kubevirt-ts cannot honour are refused, with why', () => {
  it.each([
    ['GPUs', (s: Spec) => { s.domain.devices.gpus = [{ name: 'g', deviceName: 'nvidia.com/TU104GL' }]; }, 'spec.domain.devices.gpus', /GPU passthrough is not supported: kubevirt-ts nodes hand no host PCI devices to guests/],
    ['host devices', (s: Spec) => { s.domain.devices.hostDevices = [{ name: 'h', deviceName: 'intel.com/qat' }]; }, 'spec.domain.devices.hostDevices', /host devices are not supported/],
    ['virtiofs', (s: Spec) => { s.domain.devices.filesystems = [{ name: 'f', virtiofs: {} }]; }, 'spec.domain.devices.filesystems', /no virtiofsd/],
    ['SEV', (s: Spec) => { s.domain.launchSecurity = { sev: {} }; }, 'spec.domain.launchSecurity', /SEV\) is not supported/],
    ['hugepages', (s: Spec) => { s.domain.memory.hugepages = { pageSize: '2Mi' }; }, 'spec.domain.memory.hugepages', /hugepages are not supported yet/],
    ['SR-IOV', (s: Spec) => { s.domain.devices.interfaces = [{ name: 'n', sriov: {} }]; s.networks = [{ name: 'n', multus: { networkName: 'sriov-net' } }]; }, 'spec.domain.devices.interfaces[0].sriov', /SR-IOV is not supported/],
    ['configMap volume', (s: Spec) => { s.volumes.push({ name: 'cfg', configMap: { name: 'app' } }); s.domain.devices.disks.push({ name: 'cfg' }); }, 'spec.volumes[1].configMap', /configMap volumes are not supported yet/],
    ['secret volume', (s: Spec) => { s.volumes.push({ name: 'sec', secret: { secretName: 'app' } }); s.domain.devices.disks.push({ name: 'sec' }); }, 'spec.volumes[1].secret', /secret volumes are not supported yet/],
    ['serviceAccount volume', (s: Spec) => { s.volumes.push({ name: 'sa', serviceAccount: { serviceAccountName: 'default' } }); s.domain.devices.disks.push({ name: 'sa' }); }, 'spec.volumes[1].serviceAccount', /serviceAccount volumes/],
    ['downwardAPI volume', (s: Spec) => { s.volumes.push({ name: 'd', downwardAPI: { fields: [] } }); s.domain.devices.disks.push({ name: 'd' }); }, 'spec.volumes[1].downwardAPI', /downwardAPI volumes/],
    ['sysprep volume', (s: Spec) => { s.volumes.push({ name: 'sp', sysprep: { configMap: { name: 'x' } } }); s.domain.devices.disks.push({ name: 'sp', cdrom: {} }); }, 'spec.volumes[1].sysprep', /sysprep volumes/],
  ])('%s', (_name, patch, field, message) => {
    const causes = refusals(spec(patch));
    expect(causes.map((c) => c.field)).toContain(field);
    expect(causes.find((c) => c.field === field)!.message).toMatch(message);
  });

  it('a spec using only what the launcher implements gets no refusal', () => {
    expect(refusals(spec((s) => {
      s.domain.devices.interfaces = [{ name: 'default', masquerade: {} }];
      s.networks = [{ name: 'default', pod: {} }];
      s.domain.devices.gpus = [];
      s.volumes.push({ name: 'ci', cloudInitNoCloud: { userData: '#cloud-config\n' } });
      s.domain.devices.disks.push({ name: 'ci', disk: { bus: 'virtio' } });
    }))).toEqual([]);
  });

  it.each([
    ['a TPM', (s: Spec) => { s.domain.devices.tpm = {}; }],
    ['a persistent TPM', (s: Spec) => { s.domain.devices.tpm = { persistent: true }; }],
    ['a switched-off TPM', (s: Spec) => { s.domain.devices.tpm = { enabled: false }; }],
    ['persistent EFI variables', (s: Spec) => { (s.domain as Record<string, unknown>).firmware = { bootloader: { efi: { secureBoot: false, persistent: true } } }; }],
  ])('%s is accepted (swtpm, backend storage)', (_name, patch) => {
    expect(validateVMISpec(spec(patch), 'spec', config)).toEqual([]);
  });

  it('a TPM field of the wrong type is a 422 cause, not a crash', () => {
    const causes = validateVMISpec(spec((s) => { s.domain.devices.tpm = { persistent: 'yes' }; }), 'spec', config);
    expect(causes.map((c) => c.field)).toContain('spec.domain.devices.tpm.persistent');
  });
});
