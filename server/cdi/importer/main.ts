/**
 * `kv importer`: an importer Pod's command (image kubevirt-ts/cdi-importer). Fills the Pod's
 * `cdi-data-vol` claim as its environment says, reports progress in the pod dir, and ends with a
 * termination message the DataVolume controller copies into the DataVolume's status.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../../log';
import { resolveImage } from '../../images/image-store';
import { dataPaths } from '../../data-dir';
import { importDisk } from './import-disk';
import { registrySourceDisk } from './registry-source';
import { readImportJob } from './importer-env';
import { ProgressFile } from './progress';

const TERMINATION_FILE = 'termination.json';

/** An upload's Pod only holds the claim on its node while the upload endpoint writes into it. */
async function holdForUpload(): Promise<void> {
  await new Promise<void>((resolve) => {
    const keepAlive = setInterval(() => undefined, 1 << 30);
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => { clearInterval(keepAlive); resolve(); });
  });
  process.exit(0);
}

export async function runImporterCommand(): Promise<void> {
  const podDir = process.env.KV_POD_DIR ?? process.cwd();
  const volumesDir = process.env.KV_VOLUMES_DIR || join(podDir, 'volumes');
  const logger = log.child({ component: 'importer' });
  const finish = (exitCode: number, reason: string, message: string) => {
    writeFileSync(join(podDir, TERMINATION_FILE), `${JSON.stringify({ exitCode, reason, message })}\n`);
    process.exit(exitCode);
  };
  try {
    const job = readImportJob(process.env, volumesDir, podDir);
    if (job.source === 'upload') return await holdForUpload();
    logger.info({ source: job.source, endpoint: job.endpoint, sizeBytes: job.sizeBytes }, 'import starting');
    const images = process.env.KV_DATA_DIR ? dataPaths(process.env.KV_DATA_DIR).images : undefined;
    const started = Date.now();
    const pulled = job.source === 'registry' ? await registrySourceDisk(images, job.endpoint!) : undefined;
    const message = await importDisk(job, new ProgressFile(podDir), {
      resolveImage: (ref) => pulled ?? (images ? resolveImage(images, ref) : undefined)?.disk,
      warn: (msg) => logger.warn(msg),
    });
    logger.info({ ms: Date.now() - started }, message);
    finish(0, 'Completed', message);
  } catch (err) {
    logger.error({ err: (err as Error).message }, 'import failed');
    finish(1, 'Error', (err as Error).message);
  }
}
