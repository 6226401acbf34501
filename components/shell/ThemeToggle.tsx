'use client';
import { useEffect, useState } from 'react';

const KEY = 'kv-theme';

/** Light / dark / system, remembered in localStorage (applied before paint by the inline script in the layout). */
export function ThemeToggle() {
  const [theme, setTheme] = useState<'light' | 'dark' | 'system'>('system');
  useEffect(() => setTheme((localStorage.getItem(KEY) as 'light' | 'dark' | null) ?? 'system'), []);
  const apply = (t: typeof theme) => {
    setTheme(t);
    if (t === 'system') localStorage.removeItem(KEY); else localStorage.setItem(KEY, t);
    const dark = t === 'dark' || (t === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  };
  const next = theme === 'system' ? 'dark' : theme === 'dark' ? 'light' : 'system';
  return (
    <button type="button" onClick={() => apply(next)} title={`Theme: ${theme} (click for ${next})`} aria-label="Toggle theme"
      className="rounded-md px-2 py-1 text-sm text-slate-500 dark:text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800">
      {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'}
    </button>
  );
}

export const THEME_SCRIPT = `try{var t=localStorage.getItem('${KEY}');if(t==='dark'||(!t&&matchMedia('(prefers-color-scheme: dark)').matches))document.documentElement.classList.add('dark')}catch(e){}`;
