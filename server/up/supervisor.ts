import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../log';
import { watchLiveness, type LivenessProbe } from './liveness';

/** bin/kv.mjs runs the prebuilt bundle when fresh, else the sources through tsx. */
export const kvScript = fileURLToPath(new URL('../../bin/kv.mjs', import.meta.url));

export interface ComponentSpec {
  name: string;
  /** `kv` subcommand and its flags */
  args: string[];
  env?: Record<string, string>;
  /** node/V8 flags before the script (e.g. a smaller young generation) */
  nodeFlags?: string[];
  /** restarts the component when it stops answering, not only when it exits */
  liveness?: LivenessProbe;
}

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
/** a run shorter than this counts as a crash loop and grows the backoff */
const HEALTHY_RUN_MS = 10_000;

/**
 * Runs one component as a child process (`kv <subcommand>`), restarts it with backoff when it
 * dies, and stops it on request. The child gets SIGTERM if this process dies (setpriv
 * --pdeathsig), so a killed `kv up` leaves no component behind.
 */
export class SupervisedComponent {
  private child?: ChildProcess;
  private stopping = false;
  private backoff = MIN_BACKOFF_MS;
  private restartTimer?: NodeJS.Timeout;
  restarts = 0;
  /** restarts caused by a failed liveness probe (a hung, not a dead, component) */
  livenessRestarts = 0;

  constructor(private readonly spec: ComponentSpec, private readonly logDir: string, private readonly log: Logger) {}

  get pid(): number | undefined { return this.child?.pid; }

  start(): void {
    mkdirSync(this.logDir, { recursive: true });
    // the child writes its log itself (an O_APPEND descriptor of its own): no pipe through kv up,
    // which would wake for every line a busy component logs and hold the buffers
    const out = openSync(join(this.logDir, `${this.spec.name}.log`), 'a');
    const node = [process.execPath, ...(this.spec.nodeFlags ?? []), kvScript, ...this.spec.args];
    let child: ChildProcess;
    try {
      child = spawn('setpriv', ['--pdeathsig', 'TERM', '--', ...node], {
        stdio: ['ignore', out, out],
        env: { ...process.env, ...this.spec.env },
      });
    } finally {
      closeSync(out);
    }
    const startedAt = Date.now();
    this.child = child;
    this.log.info({ component: this.spec.name, pid: child.pid }, 'component started');
    const probing = new AbortController();
    if (this.spec.liveness) {
      watchLiveness(this.spec.liveness, probing.signal, (silentMs) => {
        if (this.stopping || this.child !== child) return;
        this.livenessRestarts++;
        this.log.warn({ component: this.spec.name, pid: child.pid, silentMs }, 'component stopped answering its liveness probe; killing it');
        child.kill('SIGKILL');
      });
    }
    child.on('exit', (code, signal) => {
      probing.abort();
      if (this.child === child) this.child = undefined;
      if (this.stopping) return;
      this.backoff = Date.now() - startedAt > HEALTHY_RUN_MS ? MIN_BACKOFF_MS : Math.min(this.backoff * 2, MAX_BACKOFF_MS);
      this.log.warn({ component: this.spec.name, code, signal, restartInMs: this.backoff }, 'component exited; restarting');
      this.restartTimer = setTimeout(() => { this.restarts++; this.start(); }, this.backoff);
    });
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolveStop) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => { clearTimeout(timer); resolveStop(); });
      child.kill('SIGTERM');
    });
  }
}
