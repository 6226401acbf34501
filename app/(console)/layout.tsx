import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/AppShell';
import { Providers } from '@/components/shell/Providers';
import { openSession, SESSION_COOKIE, SESSION_KEY_ENV } from '@/server/console/session-cookie';

export const dynamic = 'force-dynamic';

/** Every console page needs a session; without one, the sign-in page. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  if (!openSession(jar.get(SESSION_COOKIE)?.value, process.env[SESSION_KEY_ENV])) redirect('/signin');
  return (
    <Providers>
      <AppShell>{children}</AppShell>
    </Providers>
  );
}
