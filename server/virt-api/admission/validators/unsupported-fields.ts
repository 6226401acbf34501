/**
 * Fields of KubeVirt's VMI spec that kubevirt-ts cannot honour, refused at admission with why —
 * never accepted and then dropped at launch (a Windows, NFV or GPU workload must not boot wrong
 * without a word). Each entry names the field and the reason; docs/differences.md lists them.
 * What may work on another host is refused until the launcher implements it.
 */
import { forbidden, type Cause } from '../cause';
import { isObject, objectAt, objectsAt } from '../json-shape';

const NO_PCI = 'kubevirt-ts nodes hand no host PCI devices to guests (no device plugins, no VFIO)';

/** spec.domain.devices.<key> present → refused */
const DEVICES: Record<string, string> = {
  gpus: `GPU passthrough is not supported: ${NO_PCI}`,
  hostDevices: `host devices are not supported: ${NO_PCI}`,
  filesystems: 'virtiofs filesystems are not supported yet: the launcher runs no virtiofsd; use a disk (persistentVolumeClaim, dataVolume or containerDisk)',
  downwardMetrics: 'the downwardMetrics device is not supported: kubevirt-ts publishes no host metrics to guests',
};

/** spec.domain.devices.interfaces[].<binding> → refused (the launcher binds masquerade and bridge only) */
const BINDINGS: Record<string, string> = {
  sriov: `SR-IOV is not supported: ${NO_PCI}`,
  passtBinding: 'the passt binding is not supported: the launcher binds the pod interface with masquerade or bridge only',
  binding: 'network binding plugins are not supported: the launcher binds the pod interface with masquerade or bridge only',
};

/** spec.volumes[].<type> → refused */
const VOLUMES: Record<string, string> = {
  downwardMetrics: 'downwardMetrics volumes are not supported: kubevirt-ts publishes no host metrics to guests',
  sysprep: 'sysprep volumes are not supported yet',
  memoryDump: 'memoryDump volumes are not supported yet',
  containerPath: 'containerPath volumes are not supported',
};

/** volumes the launcher writes as ISO disks (KubeVirt: a disk, or virtiofs when no disk names them) */
const CONFIG_VOLUMES = ['configMap', 'secret', 'serviceAccount', 'downwardAPI'];
const DOWNWARD_FIELDS = /^metadata\.(name|namespace|uid|labels|annotations|(labels|annotations)\['[^']+'\])$/;

export function validateUnsupportedFields(spec: unknown, field: string): Cause[] {
  const s = objectAt(spec);
  const domain = objectAt(s.domain);
  const devices = objectAt(domain.devices);
  const out: Cause[] = [];
  for (const [key, why] of Object.entries(DEVICES)) {
    const v = devices[key];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    out.push(forbidden(`${field}.domain.devices.${key}`, `${field}.domain.devices.${key}: ${why}`));
  }
  if (isObject(domain.launchSecurity)) {
    out.push(forbidden(`${field}.domain.launchSecurity`, `${field}.domain.launchSecurity: confidential computing (SEV) is not supported: guests run under TCG or plain KVM`));
  }
  for (const [iface, i] of objectsAt(devices.interfaces)) {
    for (const [key, why] of Object.entries(BINDINGS)) {
      if (isObject(iface[key])) out.push(forbidden(`${field}.domain.devices.interfaces[${i}].${key}`, `${field}.domain.devices.interfaces[${i}].${key}: ${why}`));
    }
  }
  for (const [net, i] of objectsAt(s.networks)) {
    if (isObject(net.multus)) out.push(forbidden(`${field}.networks[${i}].multus`, `${field}.networks[${i}].multus: Multus networks are not supported: kubevirt-ts nodes have the pod network only (no Multus, no NetworkAttachmentDefinitions)`));
  }
  const diskNames = new Set(objectsAt(devices.disks).map(([d]) => d.name));
  for (const [vol, i] of objectsAt(s.volumes)) {
    const type = Object.keys(VOLUMES).find((k) => vol[k] !== undefined);
    if (type) out.push(forbidden(`${field}.volumes[${i}].${type}`, `${field}.volumes[${i}].${type}: ${VOLUMES[type]}`));
    const config = CONFIG_VOLUMES.find((k) => vol[k] !== undefined);
    if (config && !diskNames.has(vol.name)) {
      out.push(forbidden(`${field}.volumes[${i}].${config}`, `${field}.volumes[${i}].${config}: a ${config} volume is attached as a disk here (list it in ${field}.domain.devices.disks); sharing it through virtiofs is not supported yet: the launcher runs no virtiofsd`));
    }
    for (const [f, j] of objectsAt(objectAt(vol.downwardAPI).fields)) {
      const path = objectAt(f.fieldRef).fieldPath;
      if (typeof path === 'string' && DOWNWARD_FIELDS.test(path)) continue;
      out.push(forbidden(`${field}.volumes[${i}].downwardAPI.fields[${j}]`, `${field}.volumes[${i}].downwardAPI.fields[${j}]: only fieldRef metadata.name, metadata.namespace, metadata.uid, metadata.labels, metadata.annotations and metadata.labels['<key>'] / metadata.annotations['<key>'] are supported`));
    }
  }
  return out;
}
