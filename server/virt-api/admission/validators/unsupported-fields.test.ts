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
    ['SR-IOV', (s: Spec) => { s.domain.devices.interfaces = [{ name: 'n', sriov: {} }]; s.networks = [{ name: 'n', multus: { networkName: 'sriov-net' } }]; }, 'spec.domain.devices.interfaces[0].sriov', /SR-IOV is not supported/],
    ['a Multus network', (s: Spec) => { s.domain.devices.interfaces = [{ name: 'default', masquerade: {} }, { name: 'n', bridge: {} }]; s.networks = [{ name: 'default', pod: {} }, { name: 'n', multus: { networkName: 'nad' } }]; }, 'spec.networks[1].multus', /Multus networks are not supported: kubevirt-ts nodes have the pod network only/],
    ['a binding plugin', (s: Spec) => { s.domain.devices.interfaces = [{ name: 'default', binding: { name: 'passt' } }]; s.networks = [{ name: 'default', pod: {} }]; }, 'spec.domain.devices.interfaces[0].binding', /network binding plugins are not supported/],
    ['the passt binding', (s: Spec) => { s.domain.devices.interfaces = [{ name: 'default', passtBinding: {} }]; s.networks = [{ name: 'default', pod: {} }]; }, 'spec.domain.devices.interfaces[0].passtBinding', /passt binding is not supported/],
    ['sysprep volume', (s: Spec) => { s.volumes.push({ name: 'sp', sysprep: { configMap: { name: 'x' } } }); s.domain.devices.disks.push({ name: 'sp', cdrom: {} }); }, 'spec.volumes[1].sysprep', /sysprep volumes/],
  ])('%s', (_name, patch, field, message) => {
    const causes = refusals(spec(patch));
    expect(causes.map((c) => c.field)).toContain(field);
    expect(causes.find((c) => c.field === field)!.message).toMatch(message);
  });

  it.each([
    ['configMap', { configMap: { name: 'app' } }],
    ['secret', { secret: { secretName: 'app' } }],
    ['serviceAccount', { serviceAccount: { serviceAccountName: 'default' } }],
    ['downwardAPI', { downwardAPI: { fields: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }],
  ])('a %s volume is attached as a disk; without one it is refused (no virtiofs)', (type, source) => {
    const withDisk = spec((s) => { s.volumes.push({ name: 'cfg', ...source }); s.domain.devices.disks.push({ name: 'cfg', disk: { bus: 'virtio' } }); });
    expect(refusals(withDisk)).toEqual([]);
    const causes = refusals(spec((s) => { s.volumes.push({ name: 'cfg', ...source }); }));
    expect(causes).toEqual([expect.objectContaining({ field: `spec.volumes[1].${type}`, message: expect.stringMatching(/is attached as a disk here .* no virtiofsd/) })]);
  });

  it('a downwardAPI field other than metadata is refused with what is supported', () => {
    const causes = refusals(spec((s) => {
      s.volumes.push({ name: 'd', downwardAPI: { fields: [{ path: 'n', fieldRef: { fieldPath: "metadata.labels['app']" } }, { path: 'ip', fieldRef: { fieldPath: 'status.podIP' } }, { path: 'cpu', resourceFieldRef: { resource: 'limits.cpu' } }] } });
      s.domain.devices.disks.push({ name: 'd' });
    }));
    expect(causes.map((c) => c.field)).toEqual(['spec.volumes[1].downwardAPI.fields[1]', 'spec.volumes[1].downwardAPI.fields[2]']);
    expect(causes[0].message).toMatch(/only fieldRef metadata\.name/);
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
