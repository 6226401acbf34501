'use client';
/**
 * The VNC console: noVNC (loaded client-side only) on a WebSocket we own, so close codes drive the
 * reconnect state machine. Key combos, paste-as-typing, scaling, fullscreen, screenshot.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type RFBClient from '@novnc/novnc';
import { KEY_COMBOS, KEYSYM, type KeyStroke } from '@/lib/console/keyboard-layouts';
import { Button } from '@/components/ui/Button';
import { ConsoleRefused } from './ConsoleRefused';
import { ConsoleStatus } from './ConsoleStatus';
import { PasteDialog } from './PasteDialog';
import { useConsoleSocket } from './useConsoleSocket';

type RFBLike = RFBClient;
type RFBClass = typeof RFBClient;

export function VncConsole({ namespace, name, tall }: { namespace: string; name: string; tall?: boolean }) {
  const screen = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const rfb = useRef<RFBLike>(undefined);
  const [scale, setScale] = useState(true);
  const scaleRef = useRef(scale);
  scaleRef.current = scale;
  const [pasting, setPasting] = useState(false);
  const [RFB, setRFB] = useState<RFBClass>();
  useEffect(() => { // load noVNC before the socket opens, so the RFB reader sees the server's first bytes
    let live = true;
    void import('@novnc/novnc').then((m) => { if (live) setRFB(() => m.default); });
    return () => { live = false; };
  }, []);
  const attach = useCallback((ws: WebSocket) => {
    rfb.current = undefined;
    if (!RFB || !screen.current) return;
    screen.current.replaceChildren();
    const r = new RFB(screen.current, ws);
    r.scaleViewport = scaleRef.current;
    r.focusOnClick = true;
    rfb.current = r;
  }, [RFB]);
  const { state, takeOver } = useConsoleSocket(`/ws/vnc/${namespace}/${name}`, attach, !!RFB);
  const combo = (keys: [number, string][]) => {
    const r = rfb.current;
    if (!r) return;
    keys.forEach(([k, c]) => r.sendKey(k, c, true));
    [...keys].reverse().forEach(([k, c]) => r.sendKey(k, c, false));
    r.focus();
  };
  const typeStroke = (s: KeyStroke) => {
    const r = rfb.current;
    if (!r) return;
    if (s.shift) r.sendKey(KEYSYM.Shift, 'ShiftLeft', true);
    if (s.altgr) r.sendKey(KEYSYM.AltGr, 'AltRight', true);
    r.sendKey(s.keysym, s.code, true);
    r.sendKey(s.keysym, s.code, false);
    if (s.altgr) r.sendKey(KEYSYM.AltGr, 'AltRight', false);
    if (s.shift) r.sendKey(KEYSYM.Shift, 'ShiftLeft', false);
  };
  const screenshot = () => {
    const canvas = screen.current?.querySelector('canvas');
    canvas?.toBlob((b) => {
      if (!b) return;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(b);
      a.download = `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.png`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000); // revoking at once can cancel the download
    }, 'image/png');
  };
  if (state.kind === 'forbidden') return <div className="flex flex-col gap-2"><ConsoleStatus state={state} onTakeOver={takeOver} /><ConsoleRefused why={state.why} /></div>;
  return (
    <div ref={frame} className="flex flex-col gap-2 bg-white dark:bg-slate-950">
      <div className="flex flex-wrap items-center gap-2">
        <ConsoleStatus state={state} onTakeOver={takeOver} />
        <div className="ml-auto flex flex-wrap items-center gap-1.5">
          <select aria-label="Send keys" value="" onChange={(e) => { const c = KEY_COMBOS[Number(e.target.value)]; if (c) combo(c.keys); }}
            className="rounded-md border border-slate-300 bg-transparent px-2 py-1 text-sm dark:border-slate-700">
            <option value="">Send keys…</option>
            {KEY_COMBOS.map((c, i) => <option key={c.label} value={i}>{c.label}</option>)}
          </select>
          <Button onClick={() => combo(KEY_COMBOS[0].keys)} data-testid="ctrl-alt-del">Ctrl+Alt+Del</Button>
          <Button onClick={() => setPasting(true)}>Paste as typing</Button>
          <label className="flex items-center gap-1 text-sm"><input type="checkbox" checked={scale} onChange={(e) => { setScale(e.target.checked); if (rfb.current) rfb.current.scaleViewport = e.target.checked; }} />Scale</label>
          <Button onClick={() => void frame.current?.requestFullscreen()}>Fullscreen</Button>
          <Button onClick={screenshot}>Screenshot</Button>
        </div>
      </div>
      <div ref={screen} data-testid="vnc-screen" className={`w-full overflow-hidden rounded-lg bg-black ${tall ? 'h-[calc(100vh-6rem)]' : 'h-[480px]'}`} />
      {pasting && <PasteDialog onClose={() => setPasting(false)} type={typeStroke} />}
    </div>
  );
}
