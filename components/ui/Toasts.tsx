'use client';
/** Immediate feedback for actions: "Stopping vm-1…", then the server's answer. */
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

export interface Toast { id: number; kind: 'info' | 'success' | 'error'; text: string }
const ToastContext = createContext<(kind: Toast['kind'], text: string) => void>(() => undefined);
const TTL_MS = { info: 3000, success: 4000, error: 10000 };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const push = useCallback((kind: Toast['kind'], text: string) => {
    const id = Date.now() + Math.random();
    setToasts((t) => [...t.slice(-4), { id, kind, text }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), TTL_MS[kind]);
  }, []);
  const colors = { info: 'bg-slate-800 text-white', success: 'bg-emerald-700 text-white', error: 'bg-red-700 text-white' };
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div aria-live="polite" className="fixed bottom-4 right-4 z-50 flex w-96 flex-col gap-2">
        {toasts.map((t) => (
          <div key={t.id} role={t.kind === 'error' ? 'alert' : 'status'} className={`rounded-lg px-4 py-2.5 text-sm shadow-lg ${colors[t.kind]}`}>
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
