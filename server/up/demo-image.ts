import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../log';

/** Where scripts/build-demo-image.sh leaves its output by default. */
export function demoBuildDir(): string {
  return process.env.KV_DEMO_IMAGE_DIR ?? join(homedir(), '.cache', 'kubevirt-ts', 'demo');
}

/** Registers the built-in `demo` image in this cluster's store if it was built and is not there yet. */
export async function ensureDemoImage(imagesDir: string, log: Logger): Promise<void> {
  const buildDir = demoBuildDir();
  if (!existsSync(join(buildDir, 'image.json'))) {
    log.warn({ buildDir }, 'demo image not built; run scripts/build-demo-image.sh (scripts/up.sh does)');
    return;
  }
  try {
    const store = await import('../images/image-store');
    await store.importDemoImage(imagesDir, buildDir);
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'demo image import failed');
  }
}
