/**
 * `kv storage`: the storage control loop (kube's PV binder and protection controllers plus the
 * local provisioner; CDI's DataVolume and DataSource controllers join it) against the API server in the kubeconfig.
 */
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { DataVolumeController } from '../cdi/datavolume-controller';
import { DataSourceController } from '../cdi/datasource-controller';
import { EventRecorder } from '../kube/events';
import { log } from '../log';
import { dataDirFromFlags, kubeConfigFromFlags, parseFlags } from '../node/cli-flags';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { VolumeController } from './volume-controller';
import { createUploadServer } from '../cdi/upload/upload-server';
import { advertiseUploadProxy } from '../cdi/upload/advertise';
import { registerDataVolumeWebhook, unregisterDataVolumeWebhook } from '../cdi/upload/register-webhook';

export async function runStorageCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const flags = parseFlags(argv, { 'upload-port': { type: 'string' }, 'upload-host': { type: 'string' }, 'no-datavolumes': { type: 'boolean' } });
  const kc = kubeConfigFromFlags(flags);
  const dataDir = dataDirFromFlags(flags);
  const core = kc.makeApiClient(CoreV1Api);
  const signal = stopSignal(shared);
  log.child({ component: 'storage' }).info({ server: kc.getCurrentCluster()?.server, dataDir }, 'storage controllers starting');
  const recorder = new EventRecorder(core, { component: 'persistentvolume-controller' });
  const cdiRecorder = new EventRecorder(core, { component: 'datavolume-controller' });
  const custom = kc.makeApiClient(CustomObjectsApi);
  const dataVolumes = new DataVolumeController({ kc, core, custom, recorder: cdiRecorder, dataDir });
  // --no-datavolumes: kube's storage loop only (a bare cluster has no CDI; `kv up --bare`)
  const withCdi = flags['no-datavolumes'] !== true;
  const runs = [new VolumeController({ kc, core, recorder, dataDir }).run(signal), ...(withCdi ? [dataVolumes.run(signal), new DataSourceController({ kc, custom }).run(signal)] : [])];
  if (!withCdi) runs.push(unregisterDataVolumeWebhook(kc));
  if (withCdi && typeof flags['upload-port'] === 'string') {
    const host = typeof flags['upload-host'] === 'string' ? flags['upload-host'] : '127.0.0.1';
    const port = Number(flags['upload-port']);
    const server = createUploadServer(kc, { resolve: (ns, n) => dataVolumes.uploadTarget(ns, n), finished: (ns, n, o) => dataVolumes.uploadFinished(ns, n, o) });
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, host, resolve); });
    signal.addEventListener('abort', () => server.close(), { once: true });
    runs.push(advertiseUploadProxy(core, host, port, signal));
    // the same server validates DataVolume creates (cross-namespace clones, as the creating user)
    const bound = (server.address() as { port: number }).port;
    runs.push(registerDataVolumeWebhook(kc, `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, signal));
  }
  await Promise.all(runs);
  finishRun(shared);
}
