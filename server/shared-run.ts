/**
 * How a component's `kv <command>` runner behaves when it shares a process with others
 * (`kv control-plane`, the embedded mode's default): it stops when the host's signal aborts and
 * returns to the host instead of installing its own SIGTERM handler and exiting the process.
 * Alone in its process (cluster mode, `kv up --separate-processes`), nothing changes.
 */
import { setMaxListeners } from 'node:events';

export interface SharedRun {
  /** aborts when the shared process is asked to stop */
  signal: AbortSignal;
}

/** An AbortSignal that fires on SIGTERM/SIGINT, for a command's main loop. */
export function signalOnTermination(onSignal?: (sig: NodeJS.Signals) => void): AbortSignal {
  const ctl = new AbortController();
  // the process's stop signal: every informer, controller and server of the command listens for it
  setMaxListeners(0, ctl.signal);
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.once(sig, () => {
      onSignal?.(sig);
      ctl.abort();
    });
  }
  return ctl.signal;
}

/** The runner's stop signal: the host's when shared, else SIGTERM/SIGINT of its own process. */
export function stopSignal(shared: SharedRun | undefined, onSignal?: (sig: NodeJS.Signals) => void): AbortSignal {
  if (!shared) return signalOnTermination(onSignal);
  if (onSignal) shared.signal.addEventListener('abort', () => onSignal('SIGTERM'), { once: true });
  return shared.signal;
}

/** A runner is done: alone it ends its process (open watches and agents would keep it alive); shared it returns. */
export function finishRun(shared: SharedRun | undefined, code = 0): void {
  if (!shared) process.exit(code);
}
