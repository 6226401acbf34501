/**
 * `kv storage`: the storage control loop (kube's PV binder and protection controllers plus the
 * local provisioner; CDI's DataVolume controller joins it) against the API server in the kubeconfig.
 */
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { DataVolumeController } from '../cdi/datavolume-controller';
import { EventRecorder } from '../kube/events';
import { log } from '../log';
import { dataDirFromFlags, kubeConfigFromFlags, parseFlags, signalOnTermination } from '../node/cli-flags';
import { VolumeController } from './volume-controller';

export async function runStorageCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {});
  const kc = kubeConfigFromFlags(flags);
  const dataDir = dataDirFromFlags(flags);
  const core = kc.makeApiClient(CoreV1Api);
  const signal = signalOnTermination();
  log.child({ component: 'storage' }).info({ server: kc.getCurrentCluster()?.server, dataDir }, 'storage controllers starting');
  const recorder = new EventRecorder(core, { component: 'persistentvolume-controller' });
  const cdiRecorder = new EventRecorder(core, { component: 'datavolume-controller' });
  const custom = kc.makeApiClient(CustomObjectsApi);
  await Promise.all([
    new VolumeController({ kc, core, recorder, dataDir }).run(signal),
    new DataVolumeController({ kc, core, custom, recorder: cdiRecorder, dataDir }).run(signal),
  ]);
  process.exit(0);
}
