/**
 * `virtctl console VMI`: the guest's serial console on this terminal. The terminal is put in raw
 * mode; Ctrl+] (or Ctrl+5, the same byte 0x1d) leaves. A closed socket ends the command: a clean
 * close exits 0, anything else says why it may have happened and exits 1.
 */
import { loadClientConfig } from '../client-config';
import { exactArgs, parseFlags } from '../flags';
import { openStream } from '../stream-socket';
import { VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

const ESCAPE = 0x1d;
const CLOSE_NORMAL = 1000;

export interface Terminal {
  input: NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isTTY?: boolean };
  write(data: Buffer): void;
}

export async function consoleCommand(argv: string[], out: Output, term: Terminal = { input: process.stdin, write: (d) => void process.stdout.write(d) }): Promise<void> {
  const { global, positionals } = parseFlags(argv, { timeout: { type: 'string' } });
  const [name] = exactArgs(positionals, 1);
  const { kc, namespace } = loadClientConfig(global);
  let ws;
  try {
    ws = await openStream(kc, namespace, name, 'console');
  } catch (err) {
    throw new VirtctlError(err instanceof Error ? err.message : String(err));
  }
  out.stderr(`Successfully connected to ${name} console. Press Ctrl+] or Ctrl+5 to exit console.\n`);
  const raw = term.input.isTTY && term.input.setRawMode ? term.input.setRawMode.bind(term.input) : undefined;
  raw?.(true);
  const code = await new Promise<number>((resolve) => {
    const onInput = (chunk: Buffer | string) => {
      const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const esc = data.indexOf(ESCAPE);
      if (esc >= 0) {
        if (esc > 0) ws.send(data.subarray(0, esc));
        ws.close(CLOSE_NORMAL);
        resolve(CLOSE_NORMAL);
        return;
      }
      ws.send(data);
    };
    term.input.on('data', onInput);
    ws.on('message', (data: Buffer) => term.write(data));
    ws.on('close', (c) => {
      term.input.off('data', onInput);
      resolve(c);
    });
  });
  raw?.(false);
  term.input.pause();
  if (code !== CLOSE_NORMAL) {
    throw new VirtctlError('\nYou were disconnected from the console. This could be caused by one of the following:\n - the target VM was powered off\n - another user connected to the console of the target VM\n - network issues');
  }
  out.stderr('\n');
}
