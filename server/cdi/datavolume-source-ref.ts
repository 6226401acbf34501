/**
 * PURE: a DataVolume's `spec.sourceRef: {kind: DataSource, name, namespace?}` resolved to what CDI
 * then does with it: a clone of the DataSource's source PVC. A DataSource not there (yet) leaves
 * the DataVolume waiting (it is synced again when the DataSource appears); another kind, or a
 * snapshot source (VolumeSnapshots are not served here), fails the DataVolume.
 */
import type { DataVolume } from './datavolume-types';
import type { DataSource } from './datasource-status';

export type ResolvedSource =
  | { dv: DataVolume }
  | { waiting: { reason: string; message: string } }
  | { failure: { reason: string; message: string } };

/** namespace/name of the DataSource a DataVolume names, if any */
export function dataSourceKeyOf(dv: DataVolume): string | undefined {
  const ref = dv.spec?.sourceRef;
  return ref?.kind === 'DataSource' && ref.name ? `${ref.namespace || dv.metadata.namespace}/${ref.name}` : undefined;
}

export function resolveSourceRef(dv: DataVolume, dataSource: (key: string) => DataSource | undefined): ResolvedSource {
  const ref = dv.spec?.sourceRef;
  if (!ref) return { dv };
  if (ref.kind !== 'DataSource') return { failure: { reason: 'InvalidSpec', message: `Unsupported sourceRef kind ${ref.kind ?? ''}, must be DataSource` } };
  const key = dataSourceKeyOf(dv) ?? '';
  const ds = dataSource(key);
  if (!ds) return { waiting: { reason: 'NotFound', message: `DataSource ${key} not found` } };
  const pvc = ds.spec?.source?.pvc;
  if (pvc?.name) return { dv: { ...dv, spec: { ...dv.spec, source: { pvc: { namespace: pvc.namespace || ds.metadata.namespace, name: pvc.name } } } } };
  if (ds.spec?.source?.snapshot) return { failure: { reason: 'InvalidSpec', message: `DataSource ${key} names a VolumeSnapshot; snapshot sources are not supported` } };
  return { waiting: { reason: 'NoSource', message: `DataSource ${key} has no source PVC set` } };
}
