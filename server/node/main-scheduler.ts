import { log } from '../log';
import { kubeConfigFromFlags, parseFlags } from './cli-flags';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { DEFAULT_SCHEDULER_NAME, Scheduler } from './scheduler';

/** `kv scheduler [--data-dir DIR] [--kubeconfig FILE] [--scheduler-name NAME]` */
export async function runSchedulerCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const flags = parseFlags(argv, { 'scheduler-name': { type: 'string' } });
  const kc = kubeConfigFromFlags(flags);
  const name = typeof flags['scheduler-name'] === 'string' ? flags['scheduler-name'] : DEFAULT_SCHEDULER_NAME;
  const signal = stopSignal(shared);
  log.child({ component: 'scheduler' }).info({ server: kc.getCurrentCluster()?.server, name }, 'scheduler starting');
  await new Scheduler(kc, name).run(signal);
  finishRun(shared);
}
