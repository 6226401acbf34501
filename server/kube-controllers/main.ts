import { kubeConfigFromFlags, parseFlags } from '../node/cli-flags';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { startKubeControllers } from './start';

/** `kv kube-controllers [--data-dir DIR] [--kubeconfig FILE]`: Deployment, ReplicaSet and DaemonSet controllers */
export async function runKubeControllersCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const flags = parseFlags(argv, {});
  const kc = kubeConfigFromFlags(flags);
  await startKubeControllers(kc, stopSignal(shared)).done;
  finishRun(shared);
}
