import { describe, expect, it } from 'vitest';
import { validateVMICreate, validateVMIUpdate } from './vmi-validator';
import { config, validVMI } from '../test-fixtures';

type Edit = (vmi: any) => void;
const SA = 'system:serviceaccount:kubevirt:kubevirt-controller';

describe('validateVMICreate', () => {
  it('accepts the valid fixture', () => {
    expect(validateVMICreate(validVMI(), { config })).toEqual([]);
  });

  it.each(['2Mi', '1Gi'])('accepts hugepages of %s when guest memory is a multiple', (pageSize) => {
    const vmi = validVMI();
    vmi.spec.domain.memory = { guest: '1Gi', hugepages: { pageSize } };
    expect(validateVMICreate(vmi, { config })).toEqual([]);
  });

  it.each<[string, Edit, string, string]>([
    ['memory missing', (v) => { v.spec.domain.resources = {}; }, '',
      "no memory requested, at least one of 'spec.domain.memory.guest', 'spec.domain.memory.hugepages.size' or 'spec.domain.resources.requests.memory' must be set"],
    ['memory below 1M', (v) => { v.spec.domain.resources.requests.memory = '512k'; }, 'spec.domain.resources.requests.memory',
      "spec.domain.resources.requests.memory '512k': must be greater than or equal to 1M."],
    ['negative memory', (v) => { v.spec.domain.resources.requests.memory = '-1Gi'; }, 'spec.domain.resources.requests.memory',
      "spec.domain.resources.requests.memory '-1Gi': must be greater than or equal to 0."],
    ['request above limit', (v) => { v.spec.domain.resources.limits = { memory: '64Mi' }; }, 'spec.domain.resources.requests.memory',
      "spec.domain.resources.requests.memory '128Mi' is greater than spec.domain.resources.limits.memory '64Mi'"],
    ['cpu request above limit', (v) => { v.spec.domain.resources.requests.cpu = '2'; v.spec.domain.resources.limits = { cpu: '1' }; },
      'spec.domain.resources.requests.cpu', "spec.domain.resources.requests.cpu '2' is greater than spec.domain.resources.limits.cpu '1'"],
    ['guest above limit', (v) => { v.spec.domain.memory = { guest: '1Gi' }; v.spec.domain.resources = { limits: { memory: '512Mi' } }; },
      'spec.domain.memory.guest', "spec.domain.memory.guest '1Gi' must be equal to or less than the memory limit spec.domain.resources.limits.memory '512Mi'"],
    ['hugepages larger than memory', (v) => { v.spec.domain.memory = { hugepages: { pageSize: '1Gi' } }; },
      'spec.domain.resources.requests.memory', "spec.domain.resources.requests.memory '128Mi' must be equal to or larger than page size spec.domain.memory.hugepages.pageSize '1Gi'"],
    ['hugepages of a size the host lacks', (v) => { v.spec.domain.memory = { hugepages: { pageSize: '4Mi' } }; },
      'spec.domain.memory.hugepages.pageSize', "spec.domain.memory.hugepages.pageSize '4Mi': the host's page sizes are 2Mi and 1Gi"],
    ['hugepages pageSize not a quantity', (v) => { v.spec.domain.memory = { hugepages: { pageSize: 'big' } }; },
      'spec.domain.memory.hugepages.pageSize', "spec.domain.memory.hugepages.pageSize 'big': must be a valid quantity."],
    ['guest memory not a multiple of the page size', (v) => { v.spec.domain.memory = { guest: '129Mi', hugepages: { pageSize: '2Mi' } }; },
      'spec.domain.memory.guest', "spec.domain.memory.guest '129Mi' is not a multiple of the page size spec.domain.memory.hugepages.pageSize '2Mi'"],
    ['disk without volume', (v) => { v.spec.domain.devices.disks[1].name = 'nope'; }, 'spec.domain.devices.disks[1].name',
      "spec.domain.devices.disks[1].Name 'nope' not found."],
    ['volume without disk', (v) => { v.spec.volumes.push({ name: 'extra', emptyDisk: { capacity: '1Gi' } }); }, 'spec.domain.volumes[2].name',
      "spec.domain.volumes[2].name 'extra' not found."],
    ['duplicate disk names', (v) => { v.spec.domain.devices.disks.push({ name: 'root' }); }, 'spec.domain.devices.disks[2].name',
      'spec.domain.devices.disks[2] and spec.domain.devices.disks[0] must not have the same Name.'],
    ['emptyDisk above the cap', (v) => { v.spec.volumes[1] = { name: v.spec.volumes[1].name, emptyDisk: { capacity: '2Ti' } }; }, 'spec.volumes[1].emptyDisk.capacity',
      "spec.volumes[1].emptyDisk.capacity '2Ti' exceeds the maximum emptyDisk capacity of 1Ti"],
    ['emptyDisk of zero bytes', (v) => { v.spec.volumes[1] = { name: v.spec.volumes[1].name, emptyDisk: { capacity: '0' } }; }, 'spec.volumes[1].emptyDisk.capacity',
      "spec.volumes[1].emptyDisk.capacity '0': must be greater than 0."],
    ['duplicate volume names', (v) => { v.spec.volumes.push({ name: 'root', emptyDisk: { capacity: '1Gi' } }); }, 'spec.volumes[2].name',
      'spec.volumes[2] and spec.volumes[0] must not have the same Name.'],
    ['two targets on a disk', (v) => { v.spec.domain.devices.disks[0].cdrom = {}; }, 'spec.domain.devices.disks[0]',
      'spec.domain.devices.disks[0] can only have a single target type defined'],
    ['ide bus', (v) => { v.spec.domain.devices.disks[0].disk.bus = 'ide'; }, 'spec.domain.devices.disks[0].disk.bus', 'IDE bus is not supported'],
    ['unknown bus', (v) => { v.spec.domain.devices.disks[0].disk.bus = 'nvme'; }, 'spec.domain.devices.disks[0].disk.bus',
      'spec.domain.devices.disks[0] is set with an unrecognized bus nvme, must be one of: [virtio scsi sata usb]'],
    ['virtio cdrom', (v) => { v.spec.domain.devices.disks[0] = { name: 'root', cdrom: { bus: 'virtio' } }; }, 'spec.domain.devices.disks[0].cdrom.bus',
      'Bus type virtio is invalid for CD-ROM device'],
    ['read-only sata disk', (v) => { v.spec.domain.devices.disks[0].disk = { bus: 'sata', readonly: true }; }, 'spec.domain.devices.disks[0].disk.bus',
      'sata hard-disks do not support read-only.'],
    ['boot order zero', (v) => { v.spec.domain.devices.disks[0].bootOrder = 0; }, 'spec.domain.devices.disks[0].bootOrder',
      'spec.domain.devices.disks[0] must have a boot order > 0, if supplied'],
    ['duplicate boot order', (v) => { v.spec.domain.devices.disks[0].bootOrder = 1; v.spec.domain.devices.interfaces[0].bootOrder = 1; },
      'spec.domain.devices.interfaces[0].bootOrder', 'Boot order for spec.domain.devices.interfaces[0].bootOrder already set for a different device.'],
    ['volume with two sources', (v) => { v.spec.volumes[0].emptyDisk = { capacity: '1Gi' }; }, 'spec.volumes[0]',
      'spec.volumes[0] must have exactly one source type set'],
    ['containerDisk without image', (v) => { v.spec.volumes[0].containerDisk = {}; }, 'spec.volumes[0].containerDisk.image',
      'spec.volumes[0].containerDisk.image is a required field'],
    ['cloud-init userdata too large', (v) => { v.spec.volumes[1].cloudInitNoCloud.userData = 'x'.repeat(2049); }, 'spec.volumes[1].cloudInitNoCloud',
      'spec.volumes[1].cloudInitNoCloud userdata exceeds 2048 byte limit. Should use UserDataSecretRef for larger data.'],
    ['cloud-init bad base64', (v) => { v.spec.volumes[1].cloudInitNoCloud = { userDataBase64: '%%%' }; }, 'spec.volumes[1].cloudInitNoCloud.userDataBase64',
      'spec.volumes[1].cloudInitNoCloud.userDataBase64 is not a valid base64 value.'],
    ['cloud-init two user sources', (v) => { v.spec.volumes[1].cloudInitNoCloud.userDataBase64 = 'YQ=='; }, 'spec.volumes[1].cloudInitNoCloud',
      'spec.volumes[1].cloudInitNoCloud must have only one userdatasource set.'],
    ['cloud-init empty', (v) => { v.spec.volumes[1].cloudInitNoCloud = {}; }, 'spec.volumes[1].cloudInitNoCloud',
      'spec.volumes[1].cloudInitNoCloud must have at least one userdatasource or one networkdatasource set.'],
    ['hostDisk without gate', (v) => { v.spec.volumes[0] = { name: 'root', hostDisk: { path: '/x.img', type: 'Disk' } }; }, 'spec.volumes[0].hostDisk',
      'HostDisk feature gate is not enabled'],
    ['interface without network', (v) => { v.spec.domain.devices.interfaces[0].name = 'other'; }, 'spec.domain.devices.interfaces[0].name',
      "spec.domain.devices.interfaces[0].name 'other' not found."],
    ['network without interface', (v) => { v.spec.networks.push({ name: 'extra', multus: { networkName: 'n' } }); }, 'spec.networks[1].name',
      "spec.networks[1].name 'extra' not found."],
    ['duplicate network names', (v) => { v.spec.networks.push({ name: 'default', pod: {} }); }, 'spec.networks[1].name',
      'Network with name "default" already exists, every network must have a unique name'],
    ['two interfaces on one network', (v) => { v.spec.domain.devices.interfaces.push({ name: 'default', masquerade: {} }); },
      'spec.domain.devices.interfaces[1].name', 'Only one interface can be connected to one specific network'],
    ['masquerade on multus', (v) => { v.spec.networks[0] = { name: 'default', multus: { networkName: 'n' } }; }, 'spec.domain.devices.interfaces[0].masquerade',
      'Masquerade interface only implemented with pod network'],
    ['two bindings', (v) => { v.spec.domain.devices.interfaces[0].bridge = {}; }, 'spec.domain.devices.interfaces[0]',
      'logical default interface must have exactly one binding method or binding plugin'],
    ['slirp binding', (v) => { v.spec.domain.devices.interfaces[0] = { name: 'default', slirp: {} }; }, 'spec.domain.devices.interfaces[0].slirp',
      'Slirp interface support has been discontinued since v1.3'],
    ['unsupported NIC model', (v) => { v.spec.domain.devices.interfaces[0].model = 'vmxnet3'; }, 'spec.domain.devices.interfaces[0].model',
      'interface spec.domain.devices.interfaces[0].name uses model vmxnet3 that is not supported.'],
    ['port out of range', (v) => { v.spec.domain.devices.interfaces[0].ports = [{ port: 70000 }]; }, 'spec.domain.devices.interfaces[0].ports[0].port',
      'Port field must be in range 0 < x < 65536.'],
    ['reserved MAC', (v) => { v.spec.domain.devices.interfaces[0].macAddress = '02:00:00:00:00:00'; }, 'spec.domain.devices.interfaces[0].macAddress',
      'The requested MAC address is reserved for the in-pod bridge. Please choose another one.'],
    ['EFI and BIOS', (v) => { v.spec.domain.firmware = { bootloader: { efi: { secureBoot: false }, bios: {} } }; }, 'spec.domain.firmware.bootloader',
      'spec.domain.firmware.bootloader has both EFI and BIOS configured, but they are mutually exclusive.'],
    ['SecureBoot without SMM', (v) => { v.spec.domain.firmware = { bootloader: { efi: {} } }; }, 'spec.domain.firmware.bootloader.efi.secureBoot',
      'spec.domain.firmware.bootloader.efi.secureBoot has EFI SecureBoot enabled. SecureBoot requires SMM, which is currently disabled.'],
    ['too many vCPUs', (v) => { v.spec.domain.cpu = { sockets: 64, cores: 16, threads: 1 }; }, 'spec.domain.cpu',
      'spec.domain.cpu: sockets × cores × threads (1024) must not exceed 512 vCPUs'],
    ['sockets above maxSockets', (v) => { v.spec.domain.cpu = { sockets: 4, maxSockets: 2 }; }, 'spec.domain.cpu.sockets',
      'Number of sockets in CPU topology is greater than the maximum sockets allowed'],
    ['isolateEmulatorThread alone', (v) => { v.spec.domain.cpu = { isolateEmulatorThread: true }; }, 'spec.domain.cpu.isolateEmulatorThread',
      'IsolateEmulatorThread should be only set in combination with DedicatedCPUPlacement'],
    ['unsupported machine', (v) => { v.spec.domain.machine = { type: 'pc-i440fx-7.2' }; }, 'spec.domain.machine.type',
      'spec.domain.machine.type is not supported: pc-i440fx-7.2 (allowed values: [q35* pc-q35*])'],
    ['bad eviction strategy', (v) => { v.spec.evictionStrategy = 'Sometimes'; }, 'spec.evictionStrategy',
      'spec.evictionStrategy is set with an unrecognized option: Sometimes'],
    ['bad start strategy', (v) => { v.spec.startStrategy = 'Running'; }, 'spec.startStrategy',
      'spec.startStrategy is set with an unrecognized option: Running'],
    ['hostname not a DNS label', (v) => { v.spec.hostname = 'Bad_Host'; }, 'spec.hostname', 'spec.hostname does not conform to the kubernetes DNS_LABEL rules'],
    ['dnsPolicy None without config', (v) => { v.spec.dnsPolicy = 'None'; }, 'spec.dnsConfig', 'must provide `dnsConfig` when `dnsPolicy` is None'],
    ['probe with two handlers', (v) => { v.spec.readinessProbe = { httpGet: { port: 80 }, tcpSocket: { port: 80 } }; }, 'spec.readinessProbe',
      'spec.readinessProbe must have exactly one probe type set'],
    ['input device bus', (v) => { v.spec.domain.devices.inputs = [{ name: 't', type: 'tablet', bus: 'ps2' }]; }, 'spec.domain.devices.inputs[0].bus',
      'Input device can have only virtio or usb bus.'],
    ['unsupported architecture', (v) => { v.spec.architecture = 'riscv64'; }, 'spec.architecture', 'unsupported architecture: riscv64'],
    ['reserved label', (v) => { v.metadata.labels = { 'kubevirt.io/nodeName': 'n1' }; }, 'metadata.labels',
      'creation of the following reserved kubevirt.io/ labels on a VMI object is prohibited'],
    ['wrong JSON type', (v) => { v.spec.domain.devices.disks = { name: 'x' }; }, 'spec.domain.devices.disks',
      'spec.domain.devices.disks in body must be of type array: "object"'],
    ['bad quantity', (v) => { v.spec.domain.resources.requests.memory = '12 GB'; }, 'spec.domain.resources.requests.memory',
      'spec.domain.resources.requests.memory: Invalid value: "12 GB": quantities must match'],
  ])('%s', (_name, edit, field, message) => {
    const vmi = validVMI();
    edit(vmi);
    const causes = validateVMICreate(vmi, { config });
    expect(causes).toContainEqual(expect.objectContaining({ field, message: expect.stringContaining(message) }));
  });

  it('lets KubeVirt components set reserved labels', () => {
    const vmi = validVMI();
    vmi.metadata.labels = { 'kubevirt.io/created-by': 'x' };
    expect(validateVMICreate(vmi, { config, user: { username: SA } })).toEqual([]);
  });
});

describe('validateVMIUpdate', () => {
  it.each<[string, Edit, string | undefined, string | undefined]>([
    ['spec change by a user', (v) => { v.spec.domain.resources.requests.memory = '256Mi'; }, undefined, 'update of VMI object is restricted'],
    ['spec change by virt-controller', (v) => { v.spec.domain.resources.requests.memory = '256Mi'; }, SA, undefined],
    ['reserved label change by a user', (v) => { v.metadata.labels = { 'kubevirt.io/nodeName': 'n2' }; }, undefined,
      'modification of the following reserved kubevirt.io/ labels on a VMI object is prohibited'],
    ['ordinary label change', (v) => { v.metadata.labels = { app: 'y' }; }, undefined, undefined],
    ['key order only', (v) => { v.spec = Object.fromEntries(Object.entries(v.spec).reverse()); }, undefined, undefined],
    ['guest memory change by virt-controller (memory hotplug)', (v) => { v.spec.domain.memory = { guest: '2Gi', maxGuest: '4Gi' }; }, SA, undefined],
    ['maxGuest change, even by virt-controller', (v) => { v.spec.domain.memory = { guest: '1Gi', maxGuest: '8Gi' }; }, SA, 'Memory maxGuest changed'],
  ])('%s', (_n, edit, username, message) => {
    const old = validVMI();
    if (/memory|maxGuest/.test(_n)) old.spec.domain.memory = { guest: '1Gi', maxGuest: '4Gi' };
    const vmi = validVMI();
    edit(vmi);
    const causes = validateVMIUpdate(vmi, old, { config, user: { username } });
    if (message) expect(causes.map((c) => c.message)).toEqual([message]);
    else expect(causes).toEqual([]);
  });
});
