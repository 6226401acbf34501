import { log } from '../log';
import { kubeConfigFromFlags, parseFlags } from './cli-flags';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { DEFAULT_SCHEDULER_NAME, Scheduler } from './scheduler';
import { startKubeControllers } from '../kube-controllers/start';

/**
 * `kv scheduler [--data-dir DIR] [--kubeconfig FILE] [--scheduler-name NAME] [--kube-controllers]`;
 * --kube-controllers also runs the Deployment, ReplicaSet and DaemonSet controllers in this process.
 */
export async function runSchedulerCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const flags = parseFlags(argv, { 'scheduler-name': { type: 'string' }, 'kube-controllers': { type: 'boolean' } });
  const kc = kubeConfigFromFlags(flags);
  const name = typeof flags['scheduler-name'] === 'string' ? flags['scheduler-name'] : DEFAULT_SCHEDULER_NAME;
  const signal = stopSignal(shared);
  log.child({ component: 'scheduler' }).info({ server: kc.getCurrentCluster()?.server, name }, 'scheduler starting');
  const controllers = flags['kube-controllers'] === true ? startKubeControllers(kc, signal).done : Promise.resolve();
  await Promise.all([new Scheduler(kc, name).run(signal), controllers]);
  finishRun(shared);
}
