'use client';
/**
 * The create form's draft VM as virt-api expands it (`expand-vm-spec`), for a draft naming an
 * instance type or preference: asked again 400 ms after the draft stops changing; a refusal comes
 * back as KubeVirt's message. A stale answer (the draft changed meanwhile) is dropped.
 */
import { useEffect, useRef, useState } from 'react';
import type { VirtualMachine } from '@/lib/kubevirt';
import { expandVMSpecPath } from '@/lib/kubevirt/resources';
import { ApiError, kubeFetch } from '@/components/live/api-fetch';

export const EXPAND_DEBOUNCE_MS = 400;

export type Expanded =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'ok'; vm: VirtualMachine }
  | { state: 'error'; message: string };

export function useExpandedVM(draft: VirtualMachine | undefined): Expanded {
  const [out, setOut] = useState<Expanded>({ state: 'none' });
  const seq = useRef(0);
  const key = draft && (draft.spec?.instancetype || draft.spec?.preference) ? JSON.stringify(draft) : '';
  useEffect(() => {
    const mine = ++seq.current;
    if (!key) { setOut({ state: 'none' }); return; }
    setOut((o) => (o.state === 'none' ? { state: 'loading' } : o));
    const timer = setTimeout(() => {
      const vm = JSON.parse(key) as VirtualMachine;
      kubeFetch<VirtualMachine>('PUT', expandVMSpecPath(vm.metadata?.namespace || 'default'), vm)
        .then((expanded) => { if (mine === seq.current) setOut({ state: 'ok', vm: expanded }); })
        .catch((e: unknown) => { if (mine === seq.current) setOut({ state: 'error', message: e instanceof ApiError ? e.failure.message : (e as Error).message }); });
    }, EXPAND_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return out;
}
