/**
 * Fields of KubeVirt's VMI spec that kubevirt-ts cannot honour, refused at admission with why —
 * never accepted and then dropped at launch (a Windows, NFV or GPU workload must not boot wrong
 * without a word). Each entry names the field and the reason; docs/differences.md lists them.
 * What may work on another host (hugepages) is refused until the launcher implements it.
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

/** spec.volumes[].<type> → refused */
const VOLUMES: Record<string, string> = {
  configMap: 'configMap volumes are not supported yet; pass the data with cloudInitNoCloud or a disk',
  secret: 'secret volumes are not supported yet; pass the data with cloudInitNoCloud (userDataSecretRef) or a disk',
  serviceAccount: 'serviceAccount volumes are not supported yet',
  downwardAPI: 'downwardAPI volumes are not supported yet',
  downwardMetrics: 'downwardMetrics volumes are not supported: kubevirt-ts publishes no host metrics to guests',
  sysprep: 'sysprep volumes are not supported yet',
  memoryDump: 'memoryDump volumes are not supported yet',
  containerPath: 'containerPath volumes are not supported',
};

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
  if (isObject(objectAt(domain.memory).hugepages)) {
    out.push(forbidden(`${field}.domain.memory.hugepages`, `${field}.domain.memory.hugepages: hugepages are not supported yet: the launcher backs guest memory with ordinary pages`));
  }
  for (const [iface, i] of objectsAt(devices.interfaces)) {
    if (!isObject(iface.sriov)) continue;
    out.push(forbidden(`${field}.domain.devices.interfaces[${i}].sriov`, `${field}.domain.devices.interfaces[${i}].sriov: SR-IOV is not supported: ${NO_PCI}`));
  }
  for (const [vol, i] of objectsAt(s.volumes)) {
    const type = Object.keys(VOLUMES).find((k) => vol[k] !== undefined);
    if (type) out.push(forbidden(`${field}.volumes[${i}].${type}`, `${field}.volumes[${i}].${type}: ${VOLUMES[type]}`));
  }
  return out;
}
