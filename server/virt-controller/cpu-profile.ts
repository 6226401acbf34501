/**
 * Debug aid: with KV_CONTROLLER_CPU_PROF=<dir>, `kv controller` records a V8 CPU profile from start
 * to stop and writes it to <dir>/controller-<pid>.cpuprofile (open in Chrome DevTools).
 * `node --cpu-prof` cannot be passed through NODE_OPTIONS to the component `kv up` spawns.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { log } from '../log';

export const CPU_PROFILE_ENV = 'KV_CONTROLLER_CPU_PROF';

/** Starts profiling when the env asks for it; returns a function that writes the profile (or does nothing). */
export async function startCpuProfile(env: NodeJS.ProcessEnv = process.env): Promise<() => Promise<void>> {
  const dir = env[CPU_PROFILE_ENV];
  if (!dir) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `controller-${process.pid}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    log.child({ component: 'virt-controller' }).info({ file }, 'CPU profile written');
  };
}
