'use client';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/console/query-keys';

export interface SessionInfo {
  signedIn: boolean;
  canWrite: boolean;
  canConsole: boolean;
  /** False until the server answered: say nothing about rights before that. */
  loaded: boolean;
}

/** Who is signed in and what they may do (SelfSubjectAccessReviews, checked once per page load). */
export function useSession(): SessionInfo {
  const { data } = useQuery<Omit<SessionInfo, 'loaded'>>({
    queryKey: queryKeys.session(),
    queryFn: async () => (await fetch('/api/session')).json(),
    staleTime: 60_000,
  });
  return data ? { ...data, loaded: true } : { signedIn: true, canWrite: false, canConsole: false, loaded: false };
}
