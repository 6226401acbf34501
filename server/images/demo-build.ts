/** Runs scripts/build-demo-image.sh (cached: a second run with unchanged inputs does nothing). */
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEMO_BUILD_SCRIPT = fileURLToPath(new URL('../../scripts/build-demo-image.sh', import.meta.url));

/** Where the build leaves vmlinuz, initrd.gz, cmdline and image.json (`KV_DEMO_IMAGE_DIR` overrides). */
export function defaultDemoBuildDir(): string {
  return process.env.KV_DEMO_IMAGE_DIR ?? join(homedir(), '.cache', 'kubevirt-ts', 'demo');
}

/**
 * Where the "demo-watchdog" variant is built (`KV_DEMO_WATCHDOG_IMAGE_DIR` overrides): the demo guest on
 * Debian's standard kernel, which has the i6300esb watchdog driver the cloud kernel lacks.
 */
export function watchdogDemoBuildDir(): string {
  return process.env.KV_DEMO_WATCHDOG_IMAGE_DIR ?? join(homedir(), '.cache', 'kubevirt-ts', 'demo-watchdog');
}
/** The kernel (meta)package of the "demo-watchdog" variant. */
export const WATCHDOG_DEMO_KERNEL_PACKAGE = 'linux-image-amd64';

/**
 * Builds the demo guest into `buildDir`; the script's progress goes to `stderr` (inherited by default).
 * `kernelPackage` picks another kernel (DEMO_KERNEL_PACKAGE of the script).
 */
export function buildDemoImage(opts: { buildDir?: string; quiet?: boolean; signal?: AbortSignal; kernelPackage?: string } = {}): Promise<string> {
  const buildDir = opts.buildDir ?? defaultDemoBuildDir();
  return new Promise((resolvePromise, reject) => {
    const child = spawn('sh', [DEMO_BUILD_SCRIPT, buildDir], {
      stdio: ['ignore', opts.quiet ? 'ignore' : 'inherit', opts.quiet ? 'pipe' : 'inherit'],
      signal: opts.signal,
      env: opts.kernelPackage ? { ...process.env, DEMO_KERNEL_PACKAGE: opts.kernelPackage } : process.env,
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolvePromise(buildDir);
      else reject(new Error(`build-demo-image.sh exited with ${code}${stderr ? `: ${stderr.trim()}` : ''}`));
    });
  });
}
