/**
 * CDI's DataSource against a real API server and the real storage controllers (no kubelet: importer
 * Pods stay where the scheduler leaves them): Ready follows its source PVC in CDI's words, and a
 * DataVolume naming it by `sourceRef` clones that PVC (its importer mounts it), also when the
 * DataSource only appears after the DataVolume.
 */
import { setMaxListeners } from 'node:events';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventRecorder } from '../kube/events';
import { exchangeJson } from '../kube/raw-request';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { ensureStorageClasses } from '../up/storage-classes';
import { DataSourceController } from './datasource-controller';
import { DataVolumeController } from './datavolume-controller';

const NS = 'default';
let api: Awaited<ReturnType<typeof startTestApiServer>>;
const stop = new AbortController();
setMaxListeners(50, stop.signal);

const CDI = `/apis/cdi.kubevirt.io/v1beta1/namespaces/${NS}`;
type Cond = { type: string; status: string; reason?: string; message?: string };
const get = async <T>(path: string) => (await exchangeJson<T>(api.kc, 'GET', path)).json;
const post = async (path: string, body: object) => expect((await exchangeJson(api.kc, 'POST', path, body)).status).toBe(201);
const readyOf = async (name: string) => (await get<{ status?: { conditions?: Cond[] } }>(`${CDI}/datasources/${name}`))?.status?.conditions?.find((c) => c.type === 'Ready');
const dataSource = (name: string, pvc: string) => ({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataSource', metadata: { name }, spec: { source: { pvc: { name: pvc, namespace: NS } } } });
const claim = (name: string) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '16Mi' } } } });
const dvFrom = (name: string, ds: string) => ({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name }, spec: { sourceRef: { kind: 'DataSource', name: ds }, storage: { resources: { requests: { storage: '16Mi' } } } } });
const importerOf = async (dv: string) => (await api.kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: NS })).items.find((p) => p.metadata?.labels?.['cdi.kubevirt.io/dataVolume'] === dv);

beforeAll(async () => {
  api = await startTestApiServer();
  await ensureStorageClasses(api.kc);
  const core = api.kc.makeApiClient(CoreV1Api);
  const custom = api.kc.makeApiClient(CustomObjectsApi);
  void new DataVolumeController({ kc: api.kc, core, custom, recorder: new EventRecorder(core, { component: 'datavolume-controller' }) }).run(stop.signal);
  void new DataSourceController({ kc: api.kc, custom }).run(stop.signal);
}, 60_000);

afterAll(async () => {
  stop.abort();
  await api?.stop();
});

describe('DataSource Ready', () => {
  it('is False "PVC not found" until its PVC exists, then True "DataSource is ready to be consumed"', async () => {
    await post(`${CDI}/datasources`, dataSource('golden', 'golden-disk'));
    expect(await waitFor(async () => readyOf('golden'), 20_000, 'a Ready condition')).toMatchObject({ status: 'False', reason: 'NotFound', message: 'PVC not found' });
    const ds = await get<{ status?: { source?: unknown } }>(`${CDI}/datasources/golden`);
    expect(ds?.status?.source).toEqual({ pvc: { name: 'golden-disk', namespace: NS } });
    await post(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('golden-disk'));
    await waitFor(async () => (await readyOf('golden'))?.status === 'True', 20_000, 'Ready True');
    expect(await readyOf('golden')).toMatchObject({ reason: 'Ready', message: 'DataSource is ready to be consumed' });
  });

  it('is served as kubectl knows it: short name das, in category all', async () => {
    const list = await get<{ resources: { name: string; shortNames?: string[]; categories?: string[] }[] }>('/apis/cdi.kubevirt.io/v1beta1');
    expect(list?.resources.find((r) => r.name === 'datasources')).toMatchObject({ shortNames: ['das'], categories: ['all'] });
  });
});

describe('DataVolume sourceRef: DataSource', () => {
  it("clones the DataSource's PVC: its importer mounts golden-disk, the phase is CloneScheduled", async () => {
    await post(`${CDI}/datavolumes`, dvFrom('from-golden', 'golden'));
    const pod = await waitFor(() => importerOf('from-golden'), 20_000, 'the importer pod');
    expect(pod.spec?.volumes?.map((v) => v.persistentVolumeClaim?.claimName).filter(Boolean)).toEqual(expect.arrayContaining(['from-golden', 'golden-disk']));
    await waitFor(async () => (await get<{ status?: { phase?: string } }>(`${CDI}/datavolumes/from-golden`))?.status?.phase === 'CloneScheduled', 20_000, 'CloneScheduled');
    // the stored spec still names the DataSource
    expect((await get<{ spec: object }>(`${CDI}/datavolumes/from-golden`))?.spec).toMatchObject({ sourceRef: { kind: 'DataSource', name: 'golden' } });
  });

  it('waits, Pending with the reason, for a DataSource that does not exist yet; goes on when it appears', async () => {
    await post(`${CDI}/datavolumes`, dvFrom('early', 'later'));
    const running = async () => (await get<{ status?: { phase?: string; conditions?: Cond[] } }>(`${CDI}/datavolumes/early`))?.status;
    const s = await waitFor(async () => ((await running())?.phase ? running() : undefined), 20_000, 'a status');
    expect(s.phase).toBe('Pending');
    expect(s.conditions?.find((c) => c.type === 'Running')).toMatchObject({ status: 'False', reason: 'NotFound', message: `DataSource ${NS}/later not found` });
    expect(await importerOf('early')).toBeUndefined();
    expect((await exchangeJson(api.kc, 'GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims/early`)).status).toBe(404);
    await post(`${CDI}/datasources`, dataSource('later', 'golden-disk'));
    const pod = await waitFor(() => importerOf('early'), 20_000, 'the importer pod after the DataSource appeared');
    expect(pod.spec?.volumes?.some((v) => v.persistentVolumeClaim?.claimName === 'golden-disk')).toBe(true);
  });
});
