/**
 * The volume sources of a PersistentVolume: kube accepts exactly one. The ones we check
 * field by field (hostPath, local, nfs, csi) get kube's messages; the others are only counted.
 */
import type { StatusCause } from '../../status-error';
import { asRecord, asString, forbidden, invalidValue, required } from './field-errors';

/** spec fields that are volume sources, in kube's checking order (with the path its errors use) */
export const PV_SOURCES: readonly [string, string][] = [
  ['hostPath', 'hostPath'], ['gcePersistentDisk', 'persistentDisk'], ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['glusterfs', 'glusterfs'], ['flocker', 'flocker'], ['nfs', 'nfs'], ['rbd', 'rbd'], ['quobyte', 'quobyte'],
  ['cephfs', 'cephfs'], ['iscsi', 'iscsi'], ['cinder', 'cinder'], ['fc', 'fc'], ['flexVolume', 'flexVolume'],
  ['azureFile', 'azureFile'], ['vsphereVolume', 'vsphereVolume'], ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'], ['azureDisk', 'azureDisk'], ['scaleIO', 'scaleIO'], ['local', 'local'],
  ['storageos', 'storageos'], ['csi', 'csi'],
];

function noBacksteps(path: string, field: string): StatusCause[] {
  return path.split('/').includes('..') ? [invalidValue(field, path, "must not contain '..'")] : [];
}

function pathCauses(source: Record<string, unknown>, field: string): StatusCause[] {
  const path = asString(source.path) ?? '';
  if (!path) return [required(field)];
  return noBacksteps(path, field);
}

function nfsCauses(nfs: Record<string, unknown>, p: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!asString(nfs.server)) causes.push(required(`${p}.server`));
  const path = asString(nfs.path) ?? '';
  if (!path) causes.push(required(`${p}.path`));
  else if (!path.startsWith('/')) causes.push(invalidValue(`${p}.path`, path, 'must be an absolute path'));
  return causes;
}

const CSI_DRIVER = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function csiCauses(csi: Record<string, unknown>, p: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const driver = asString(csi.driver) ?? '';
  if (!driver) causes.push(required(`${p}.driver`));
  else if (driver.length > 63) causes.push({ reason: 'FieldValueTooLong', field: `${p}.driver`, message: 'Too long: may not be more than 63 bytes' });
  else if (!CSI_DRIVER.test(driver.toLowerCase())) {
    causes.push(invalidValue(`${p}.driver`, driver, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  }
  if (!asString(csi.volumeHandle)) causes.push(required(`${p}.volumeHandle`));
  return causes;
}

function sourceCauses(key: string, source: Record<string, unknown>, p: string): StatusCause[] {
  switch (key) {
    case 'hostPath': return pathCauses(source, `${p}.path`);
    case 'local': return pathCauses(source, `${p}.path`);
    case 'nfs': return nfsCauses(source, p);
    case 'csi': return csiCauses(source, p);
    default: return [];
  }
}

/** the volume source checks; `hasNodeAffinity` says whether spec.nodeAffinity was given (a local volume needs it) */
export function volumeSourceCauses(spec: Record<string, unknown>, hasNodeAffinity: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  let count = 0;
  for (const [key, pathName] of PV_SOURCES) {
    if (spec[key] === undefined || spec[key] === null) continue;
    const p = `spec.${pathName}`;
    if (count > 0 && key !== 'flexVolume') { causes.push(forbidden(`spec.${key}`, 'may not specify more than 1 volume type')); continue; }
    count++;
    causes.push(...sourceCauses(key, asRecord(spec[key]), p));
    if (key === 'local' && !hasNodeAffinity) causes.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (count === 0) causes.push(required('spec', 'must specify a volume type'));
  return causes;
}

/** the spec's volume source alone, for the update rule that it never changes */
export function volumeSourceOf(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(PV_SOURCES.filter(([k]) => spec[k] !== undefined).map(([k]) => [k, spec[k]]));
}
