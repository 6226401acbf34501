'use client';
/**
 * A live list (headlamp's useResourceList): subscribes to the collection on the shared watch socket
 * and merges each event into TanStack Query's cache with the pure applyWatchEvent. No polling.
 */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { KubeObject } from '@/lib/kubevirt';
import { applyWatchEvent, type ObjectList } from '@/lib/console/watch-events';
import { queryKeys, subscriptionId } from '@/lib/console/query-keys';
import { watchClient } from './watch-client';

export interface ListResult<T> {
  items: T[];
  loaded: boolean;
  error?: { code: number; message: string };
}

const EMPTY: never[] = [];

export function useResourceList<T extends KubeObject>(path: string | undefined, opts: { labelSelector?: string; fieldSelector?: string } = {}): ListResult<T> {
  const qc = useQueryClient();
  const key = queryKeys.list(path ?? '', opts.labelSelector, opts.fieldSelector);
  const id = subscriptionId(key);
  const [error, setError] = useState<{ code: number; message: string }>();
  useEffect(() => {
    if (!path) return;
    return watchClient().subscribe({ id, path, labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector }, (m) => {
      if (m.kind === 'list') { setError(undefined); qc.setQueryData(key, m.list); }
      else if (m.kind === 'event') qc.setQueryData<ObjectList>(key, (old) => (old ? applyWatchEvent(old, m.event) : old));
      else setError({ code: m.code, message: m.message });
    });
    // the subscription depends on the resource identity (id) only; key and opts are derived from it
  }, [id]);
  const { data } = useQuery<ObjectList<T>>({ queryKey: key, enabled: false, staleTime: Infinity, gcTime: 5 * 60_000 });
  return { items: (data?.items as T[]) ?? EMPTY, loaded: !!data, error };
}
