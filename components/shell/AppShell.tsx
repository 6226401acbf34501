'use client';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/console/query-keys';
import { useLinkState } from '@/components/live/useLinkState';
import { useSession } from '@/components/live/useSession';
import { CommandPalette } from './CommandPalette';
import { ThemeToggle } from './ThemeToggle';

const NAV = [
  { href: '/', label: 'Overview' }, { href: '/vms', label: 'Virtual machines' },
  { href: '/groups', label: 'VM groups' }, { href: '/nodes', label: 'Nodes' }, { href: '/storage', label: 'Storage' }, { href: '/migrations', label: 'Migrations' }, { href: '/settings', label: 'Settings' },
];

function LinkIndicator() {
  const s = useLinkState();
  const color = s === 'live' ? 'bg-emerald-500' : s === 'connecting' ? 'bg-slate-400' : 'bg-amber-500 animate-pulse';
  return (
    <span className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400" data-testid="link-state" data-state={s}>
      <span className={`h-2 w-2 rounded-full ${color}`} />{s === 'live' ? 'Live' : s === 'connecting' ? 'Connecting' : 'Reconnecting…'}
    </span>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const path = usePathname();
  const router = useRouter();
  const session = useSession();
  const queryClient = useQueryClient();
  // the next sign-in is someone else: drop the session and every namespace's rights with it
  const signOut = async () => { await fetch('/api/session', { method: 'DELETE' }); queryClient.removeQueries({ queryKey: queryKeys.session() }); router.replace('/signin'); };
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-30 flex h-12 items-center gap-6 border-b border-slate-200 bg-white/90 px-4 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
        <Link href="/" className="font-semibold tracking-tight">kubevirt<span className="text-indigo-500 dark:text-indigo-400">-ts</span></Link>
        <nav className="flex gap-1" aria-label="Main">
          {NAV.map((n) => {
            const active = n.href === '/' ? path === '/' : path.startsWith(n.href);
            return (
              <Link key={n.href} href={n.href} aria-current={active ? 'page' : undefined}
                className={`rounded-md px-2.5 py-1 text-sm ${active ? 'bg-slate-100 font-medium dark:bg-slate-800' : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'}`}>
                {n.label}
              </Link>
            );
          })}
        </nav>
        <div className="ml-auto flex items-center gap-3">
          <LinkIndicator />
          {session.loaded && !session.canWrite && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800 dark:bg-amber-900/50 dark:text-amber-300" title="This sign-in may not act cluster-wide: each VM shows the actions its namespace allows">limited rights</span>}
          <kbd className="hidden rounded border border-slate-300 px-1.5 text-xs text-slate-500 dark:text-slate-400 sm:inline dark:border-slate-700" title="Command palette">⌘K</kbd>
          <ThemeToggle />
          <button type="button" onClick={signOut} className="text-sm text-slate-500 dark:text-slate-400 hover:text-slate-900 dark:hover:text-white">Sign out</button>
        </div>
      </header>
      <main className="mx-auto w-full max-w-[1400px] flex-1 p-4 lg:p-6">{children}</main>
      <CommandPalette />
    </div>
  );
}
