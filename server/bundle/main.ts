import { log } from '../log';
import { buildKvBundle } from './build-bundle';
import { ensureKvBundle } from './ensure-bundle';

/** `kv bundle [--force]`: (re)build the `kv` bundle unless it is fresh (setup runs this). */
export async function runBundleCommand(argv: string[]): Promise<void> {
  const logger = log.child({ component: 'bundle' });
  if (argv.includes('--force')) {
    const m = await buildKvBundle();
    logger.info({ entry: m.entry, sources: Object.keys(m.inputs).length }, 'kv bundle built');
    return;
  }
  const state = await ensureKvBundle(logger);
  if (state === 'unavailable') process.exitCode = 1;
  else if (state === 'fresh') logger.info('kv bundle is fresh');
}
