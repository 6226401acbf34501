import { kubeConfigFromFlags, parseFlags, signalOnTermination } from '../node/cli-flags';
import { startKubeControllers } from './start';

/** `kv kube-controllers [--data-dir DIR] [--kubeconfig FILE]`: Deployment, ReplicaSet and DaemonSet controllers */
export async function runKubeControllersCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {});
  const kc = kubeConfigFromFlags(flags);
  await startKubeControllers(kc, signalOnTermination()).done;
  process.exit(0);
}
