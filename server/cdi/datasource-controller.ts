/**
 * CDI's DataSource controller: keeps each DataSource's status (Ready, status.source) from the
 * DataVolume or PVC its source names (datasource-status.ts); a DataVolume's phase or a PVC's
 * arrival, phase or removal re-syncs the DataSources pointing at it.
 */
import type { CustomObjectsApi, KubeConfig, KubernetesObject, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { isConflict, isNotFound } from '../kube/api-errors';
import { mergePatch } from '../kube/clients';
import { Controller } from '../kube/controller';
import { Informer } from '../kube/informer';
import { keyOf } from '../kube/resources';
import { CDI_GROUP, CDI_VERSION, DATAVOLUMES, type DataVolume } from './datavolume-types';
import { computeDataSourceStatus, DATASOURCES, pvcSourceKey, type DataSource } from './datasource-status';

export interface DataSourceControllerOptions {
  kc: KubeConfig;
  custom: CustomObjectsApi;
}

const conditionsOnly = (s: DataSource['status']) => JSON.stringify({ source: s?.source, conditions: s?.conditions?.map(({ lastHeartbeatTime: _h, lastTransitionTime: _t, ...c }) => c) });

export class DataSourceController {
  readonly dataSources: Informer<DataSource & KubernetesObject>;
  private readonly dataVolumes: Informer<DataVolume & KubernetesObject>;
  private readonly claims: Informer<V1PersistentVolumeClaim & KubernetesObject>;
  private readonly controller: Controller;

  constructor(private readonly opts: DataSourceControllerOptions) {
    const kc = opts.kc;
    this.dataSources = new Informer({ kc, path: `/apis/${CDI_GROUP}/${CDI_VERSION}/${DATASOURCES}` });
    this.dataVolumes = new Informer({ kc, path: `/apis/${CDI_GROUP}/${CDI_VERSION}/${DATAVOLUMES}` });
    this.claims = new Informer({ kc, path: '/api/v1/persistentvolumeclaims' });
    this.controller = new Controller({ name: 'datasource-controller', execute: (k) => this.sync(k), informers: [this.dataSources, this.dataVolumes, this.claims], workers: 1 });
    this.dataSources.on(this.controller.enqueueHandlers());
    const pointingAt = (o: KubernetesObject) => {
      const key = keyOf(o);
      for (const ds of this.dataSources.list((d) => pvcSourceKey(d) === key)) this.controller.enqueue(keyOf(ds));
    };
    for (const inf of [this.dataVolumes, this.claims] as Informer<KubernetesObject>[]) inf.on({ add: pointingAt, update: (_o, n) => pointingAt(n), delete: pointingAt });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.dataSources.run(signal), this.dataVolumes.run(signal), this.claims.run(signal), this.controller.run(signal)]);
  }

  async sync(key: string): Promise<void> {
    const ds = this.dataSources.get(key);
    if (!ds || ds.metadata.deletionTimestamp) return;
    const source = pvcSourceKey(ds);
    const status = computeDataSourceStatus(ds, {
      dv: source ? this.dataVolumes.get(source) : undefined, pvc: source ? this.claims.get(source) : undefined, now: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
    if (conditionsOnly(ds.status) === conditionsOnly(status)) return;
    try {
      await this.opts.custom.patchNamespacedCustomObjectStatus({
        group: CDI_GROUP, version: CDI_VERSION, plural: DATASOURCES, namespace: ds.metadata.namespace!, name: ds.metadata.name!,
        body: { metadata: { resourceVersion: ds.metadata.resourceVersion }, status },
      }, mergePatch);
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err; // gone, or our cache is behind: an event follows
    }
  }
}
