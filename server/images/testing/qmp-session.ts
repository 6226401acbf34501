/** A minimal QMP session for tests: greeting, qmp_capabilities, then one command at a time. */
import { connect, type Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { waitFor } from './wait-for';

export interface QmpSession {
  execute(command: string, args?: Record<string, unknown>): Promise<unknown>;
  close(): void;
}

export async function openQmpSession(socketPath: string, timeoutMs = 10_000): Promise<QmpSession> {
  await waitFor(() => existsSync(socketPath), { timeoutMs, what: `QMP socket ${socketPath}` });
  const sock: Socket = connect(socketPath);
  let buffered = '';
  const waiting: ((msg: Record<string, unknown>) => void)[] = [];
  sock.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
      buffered = buffered.slice(nl + 1);
      if (!('event' in msg)) waiting.shift()?.(msg);
    }
  });
  const next = () => new Promise<Record<string, unknown>>((res) => waiting.push(res));
  await next(); // greeting
  const execute = async (command: string, args?: Record<string, unknown>) => {
    const reply = next();
    sock.write(JSON.stringify({ execute: command, arguments: args }) + '\n');
    const msg = await reply;
    if (msg.error) throw new Error(`QMP ${command}: ${JSON.stringify(msg.error)}`);
    return msg.return;
  };
  await execute('qmp_capabilities');
  return { execute, close: () => sock.destroy() };
}
