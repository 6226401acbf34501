import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/AppShell';
import { Providers } from '@/components/shell/Providers';
import { consoleSessions } from '@/server/console/console-sessions';
import { SESSION_COOKIE } from '@/server/console/session-cookie';

export const dynamic = 'force-dynamic';

/** Every console page needs a session; without one, the sign-in page. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  if (!consoleSessions().lookup(jar.get(SESSION_COOKIE)?.value)) redirect('/signin');
  return (
    <Providers>
      <AppShell>{children}</AppShell>
    </Providers>
  );
}
