'use client';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/console/query-keys';

export interface SessionInfo { signedIn: boolean; canWrite: boolean; canConsole: boolean }

/** Who is signed in and what they may do (SelfSubjectAccessReviews, checked once per page load). */
export function useSession(): SessionInfo {
  const { data } = useQuery<SessionInfo>({
    queryKey: queryKeys.session(),
    queryFn: async () => (await fetch('/api/session')).json(),
    staleTime: 60_000,
  });
  return data ?? { signedIn: true, canWrite: false, canConsole: false };
}
