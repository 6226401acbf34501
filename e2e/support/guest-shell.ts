/** A root shell on the demo guest through the serial console subresource (login root, no password). */
import type WebSocket from 'ws';
import type { Endpoint } from './rest';
import { subresource } from './rest';
import { openStream, readUntil } from './streams';

export interface GuestShell {
  /** runs `cmd`, resolves with what it printed (between two markers) */
  run(cmd: string, timeoutMs?: number): Promise<string>;
  close(): void;
}

export async function openGuestShell(ep: Endpoint, ns: string, vmi: string, timeoutMs = 120_000): Promise<GuestShell> {
  const opened = await openStream(ep, subresource(ns, 'virtualmachineinstances', vmi, 'console'));
  if (!opened.ws) throw new Error(`console of ${vmi}: ${opened.status} ${opened.body}`);
  const ws: WebSocket = opened.ws;
  // the demo guest's prompt ends with a cursor position query (ESC [6n)
  const prompt = (t: string) => t.endsWith('# ') || t.endsWith('# \u001b[6n');
  const first = await readUntil(ws, (t) => / login: $/.test(t) || prompt(t), { timeoutMs, poke: Buffer.from('\r'), pokeMs: 2000 });
  if (!prompt(first)) await readUntil(ws, prompt, { timeoutMs: 20_000, poke: Buffer.from('root\r'), pokeMs: 5000 });
  let n = 0;
  return {
    async run(cmd, ms = 30_000) {
      const tag = `KVTS${++n}X${Date.now() % 100000}`;
      // the markers are built by the shell, so the echoed command line never matches them
      const text = await readUntil(ws, (t) => t.includes(`${tag}-END`), { timeoutMs: ms, poke: Buffer.from(`echo ${tag.slice(0, 4)}''${tag.slice(4)}-BEGIN; ${cmd}; echo ${tag.slice(0, 4)}''${tag.slice(4)}-END\r`), pokeMs: ms * 2 });
      const begin = text.lastIndexOf(`${tag}-BEGIN`);
      return text.slice(begin + tag.length + 6, text.lastIndexOf(`${tag}-END`)).replace(/\r/g, '').trim();
    },
    close: () => ws.close(),
  };
}
