/** Helpers for tests on a whole `kv up` cluster: handler endpoints, streams, pod dirs, processes. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { dataPaths } from '../../data-dir';
import { handlerTokenPath } from '../node-endpoint';

export interface HandlerAccess { url: string; token: string }

export function handlerAccess(dataDir: string, node: string, endpoint: string): HandlerAccess {
  return { url: endpoint, token: readFileSync(handlerTokenPath(dataDir, node), 'utf8').trim() };
}

/**
 * Messages that arrived before the test attached its own listener. `ws` emits the frames that came
 * in the same read as the 101 synchronously after 'open', before an awaiting caller runs, so a
 * VNC greeting sent at once (QEMU sends it on connect) would otherwise be lost to the test.
 */
const early = new WeakMap<WebSocket, { chunks: Buffer[]; listener: (d: Buffer) => void }>();

/** the messages buffered since the stream opened; later ones go only to the caller's listeners */
export function takeEarlyMessages(ws: WebSocket): Buffer[] {
  const e = early.get(ws);
  if (!e) return [];
  ws.off('message', e.listener);
  early.delete(ws);
  return e.chunks;
}

export function openStream(h: HandlerAccess, ns: string, name: string, kind: 'vnc' | 'console'): Promise<WebSocket> {
  const ws = new WebSocket(`${h.url.replace(/^http/, 'ws')}/v1/namespaces/${ns}/virtualmachineinstances/${name}/${kind}`, { headers: { authorization: `Bearer ${h.token}` } });
  const chunks: Buffer[] = [];
  const listener = (d: Buffer) => { chunks.push(d); };
  ws.on('message', listener);
  early.set(ws, { chunks, listener });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_q, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Sends Enter until the serial output contains `text` (getty reprints its prompt on a newline). */
export async function waitForSerial(ws: WebSocket, text: string, timeoutMs: number): Promise<string> {
  let out = Buffer.concat(takeEarlyMessages(ws)).toString('latin1');
  ws.on('message', (d: Buffer) => { out += d.toString('latin1'); });
  const deadline = Date.now() + timeoutMs;
  while (!out.includes(text)) {
    if (Date.now() > deadline) throw new Error(`serial never showed ${JSON.stringify(text)}; got ${JSON.stringify(out.slice(-500))}`);
    ws.send(Buffer.from('\r'));
    await new Promise((r) => setTimeout(r, 500));
  }
  return out;
}

export function qemuPidOf(dataDir: string, node: string, podUID: string): number | undefined {
  const file = join(dataPaths(dataDir).node(node), 'pods', podUID, 'qemu.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : undefined;
}

/** A process's real, effective, saved and filesystem uids. */
export function uidsOf(pid: number): number[] {
  return (/^Uid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '').trim().split(/\s+/).map(Number);
}

/** Whether `path` can be read in process `pid`'s mount namespace as `uid` (what that QEMU could read). */
export function readableAs(pid: number, uid: number, path: string): boolean {
  return spawnSync('nsenter', ['--target', String(pid), '--mount', '--', 'setpriv', '--reuid', String(uid), '--regid', String(uid), '--clear-groups', '--', 'cat', path], { stdio: 'ignore' }).status === 0;
}

export const isAlive = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');

/** PIDs whose command line contains every one of `parts` (e.g. ['handler', '--node', 'node-1', dataDir]). */
export function findProcesses(parts: string[]): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      return parts.every((p) => cmd.includes(p)) ? [Number(d)] : [];
    } catch {
      return [];
    }
  });
}
