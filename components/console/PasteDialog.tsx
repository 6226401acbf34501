'use client';
/** Paste text by typing it into the guest, with the guest's keyboard layout, a progress bar and Cancel. */
import { useEffect, useRef, useState } from 'react';
import { guessLayout, KEYBOARD_LAYOUTS, planTyping, type KeyStroke } from '@/lib/console/keyboard-layouts';
import { Button } from '@/components/ui/Button';
import { Dialog } from '@/components/ui/Dialog';

const LAYOUT_KEY = 'kv-guest-layout';
const STROKE_MS = 12;

export function PasteDialog({ onClose, type }: { onClose: () => void; type: (s: KeyStroke) => void }) {
  const [text, setText] = useState('');
  const [layout, setLayout] = useState('us');
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const cancel = useRef(false);
  useEffect(() => setLayout(localStorage.getItem(LAYOUT_KEY) ?? guessLayout(navigator.language)), []);
  const plan = planTyping(text, layout);
  const run = async () => {
    cancel.current = false;
    localStorage.setItem(LAYOUT_KEY, layout);
    for (let i = 0; i < plan.strokes.length; i++) {
      if (cancel.current) break;
      type(plan.strokes[i]);
      setProgress({ done: i + 1, total: plan.strokes.length });
      await new Promise((r) => setTimeout(r, STROKE_MS));
    }
    setProgress(undefined);
    if (!cancel.current) onClose();
  };
  return (
    <Dialog open onClose={() => { cancel.current = true; onClose(); }} title="Type text into the guest" wide>
      <textarea autoFocus value={text} onChange={(e) => setText(e.target.value)} rows={6} aria-label="Text to type" spellCheck={false}
        className="w-full rounded-md border border-slate-300 bg-transparent p-2 font-mono text-sm dark:border-slate-700" placeholder="Paste here; it is typed key by key, never put on the clipboard." />
      <div className="mt-2 flex items-center gap-2 text-sm">
        <label htmlFor="layout">Guest keyboard layout</label>
        <select id="layout" value={layout} onChange={(e) => setLayout(e.target.value)} className="rounded-md border border-slate-300 bg-transparent px-2 py-1 dark:border-slate-700">
          {Object.entries(KEYBOARD_LAYOUTS).map(([k, v]) => <option key={k} value={k}>{v.label}</option>)}
        </select>
      </div>
      {plan.unsupported.length > 0 && <p className="mt-2 text-xs text-amber-700 dark:text-amber-400">This layout cannot type {plan.unsupported.map((c) => JSON.stringify(c)).join(' ')}; they will be skipped.</p>}
      {progress && (
        <div className="mt-3" role="progressbar" aria-valuenow={progress.done} aria-valuemax={progress.total} aria-label="Typing progress">
          <div className="h-2 rounded-full bg-slate-200 dark:bg-slate-800"><div className="h-2 rounded-full bg-indigo-500" style={{ width: `${(100 * progress.done) / progress.total}%` }} /></div>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{progress.done} / {progress.total} keys</p>
        </div>
      )}
      <div className="mt-4 flex justify-end gap-2">
        {progress ? <Button onClick={() => { cancel.current = true; }}>Cancel typing</Button> : <Button onClick={onClose}>Close</Button>}
        <Button variant="primary" disabled={!plan.strokes.length || !!progress} onClick={run}>Type {plan.strokes.length} keys</Button>
      </div>
    </Dialog>
  );
}
