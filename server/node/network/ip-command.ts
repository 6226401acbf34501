import { execFileSync } from 'node:child_process';

/** Run iproute2/nft/sysctl-style commands; failures carry the tool's stderr. */
export function run(file: string, args: string[], input?: string): string {
  try {
    return execFileSync(file, args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')}: ${(e.stderr ?? '').trim() || e.message}`, { cause: err });
  }
}

/** Like run, but a failure is ignored (teardown of what may already be gone). */
export function tryRun(file: string, args: string[]): boolean {
  try {
    run(file, args);
    return true;
  } catch {
    return false;
  }
}
