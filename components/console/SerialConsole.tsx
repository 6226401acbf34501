'use client';
/** The serial console in xterm.js; scrollback survives reconnects (reboot, migration). */
import { useCallback, useEffect, useRef } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { ConsoleRefused } from './ConsoleRefused';
import { ConsoleStatus } from './ConsoleStatus';
import { useConsoleSocket } from './useConsoleSocket';

export function SerialConsole({ namespace, name }: { namespace: string; name: string }) {
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal>(undefined);
  const socket = useRef<WebSocket>(undefined);
  useEffect(() => {
    const t = new Terminal({ convertEol: false, cursorBlink: true, scrollback: 10_000, fontSize: 13, theme: { background: '#0b1020' } });
    const fit = new FitAddon();
    t.loadAddon(fit);
    t.open(host.current!);
    fit.fit();
    const enc = new TextEncoder();
    const sub = t.onData((d) => { if (socket.current?.readyState === WebSocket.OPEN) socket.current.send(enc.encode(d)); });
    const onResize = () => fit.fit();
    window.addEventListener('resize', onResize);
    term.current = t;
    return () => { sub.dispose(); window.removeEventListener('resize', onResize); t.dispose(); };
  }, []);
  const attach = useCallback((ws: WebSocket) => {
    socket.current = ws;
    ws.addEventListener('open', () => term.current?.write('\r\n\x1b[32m[connected]\x1b[0m\r\n'));
    ws.addEventListener('message', (e) => term.current?.write(typeof e.data === 'string' ? e.data : new Uint8Array(e.data as ArrayBuffer)));
  }, []);
  const { state, takeOver } = useConsoleSocket(`/ws/console/${namespace}/${name}`, attach);
  return (
    <div className="flex flex-col gap-2">
      <ConsoleStatus state={state} onTakeOver={takeOver} />
      {state.kind === 'forbidden' && <ConsoleRefused why={state.why} />}
      <div ref={host} data-testid="serial-terminal" className={`h-[480px] overflow-hidden rounded-lg bg-[#0b1020] p-2 ${state.kind === 'forbidden' ? 'hidden' : ''}`} onClick={() => term.current?.focus()} />
      <p className="text-xs text-slate-500 dark:text-slate-400">Press Enter if the screen is blank: the serial line only shows what the guest writes after you connect.</p>
    </div>
  );
}
