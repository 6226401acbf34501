'use client';
/**
 * A console WebSocket with the reconnect state machine of lib/console/console-connection: reconnect
 * forever with backoff (reboot, blip, migration), wait for the user when another session took over.
 * `open(socket)` hands each new socket to the viewer (noVNC or xterm), synchronously, before any
 * message can arrive: a VNC server speaks first, and a banner lost before the viewer listens leaves a
 * "connected" console that never draws. `enabled: false` holds off until the viewer is loaded.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { afterClose, type ConsoleState } from '@/lib/console/console-connection';

export function useConsoleSocket(path: string, open: (ws: WebSocket) => void, enabled = true) {
  const [state, setState] = useState<ConsoleState>({ kind: 'connecting', attempt: 0 });
  const wsRef = useRef<WebSocket>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const attempt = useRef(0);
  const userClosed = useRef(false);
  const openRef = useRef(open);
  openRef.current = open;

  const connect = useCallback((preserveSession: boolean) => {
    clearTimeout(timer.current);
    wsRef.current?.close();
    userClosed.current = false;
    setState({ kind: 'connecting', attempt: attempt.current });
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}${preserveSession ? '?preserveSession=true' : ''}`;
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    wsRef.current = ws;
    ws.addEventListener('open', () => { attempt.current = 0; setState({ kind: 'connected' }); });
    ws.addEventListener('close', (e) => {
      if (wsRef.current !== ws) return;
      const next = afterClose(e.code, e.reason, { attempt: attempt.current, preserveSession, userClosed: userClosed.current });
      setState(next);
      if (next.kind === 'reconnecting') {
        attempt.current = next.attempt;
        timer.current = setTimeout(() => connect(true), next.inMs);
      }
    });
    openRef.current(ws);
  }, [path]);

  useEffect(() => {
    if (!enabled) return;
    connect(true);
    return () => { userClosed.current = true; clearTimeout(timer.current); wsRef.current?.close(); wsRef.current = undefined; };
  }, [connect, enabled]);

  /** Connect now, taking the console over from any other session. */
  const takeOver = useCallback(() => { attempt.current = 0; connect(false); }, [connect]);
  return { state, takeOver, socket: wsRef };
}
