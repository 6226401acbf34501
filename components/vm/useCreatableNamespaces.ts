'use client';
/**
 * The namespaces the user may create VMs in, among those they can see (the Namespace list where
 * they may list it, the namespaces of the VMs they see, plus `extra` — what they typed); one rules
 * review per namespace, cached.
 */
import { useMemo } from 'react';
import type { KubeObject } from '@/lib/kubevirt';
import { NamespaceResource, resourcePath } from '@/lib/kubevirt/resources';
import { useVMs } from '@/components/live/useCluster';
import { useManyNamespacePermissions } from '@/components/live/useNamespacePermissions';
import { useResourceList } from '@/components/live/useResourceList';

export interface CreatableNamespaces {
  /** every candidate's rights are known */
  checked: boolean;
  namespaces: string[];
  /** whether `extra` may hold a new VM (undefined until known) */
  extraAllowed?: boolean;
}

export function useCreatableNamespaces(extra?: string): CreatableNamespaces {
  const nsList = useResourceList<KubeObject>(resourcePath(NamespaceResource, {}));
  const vms = useVMs();
  const candidates = useMemo(() => [...new Set([
    ...nsList.items.map((n) => n.metadata.name ?? ''),
    ...vms.items.map((v) => v.metadata.namespace ?? ''),
    ...(extra ? [extra] : []),
  ])].filter(Boolean).sort(), [nsList.items, vms.items, extra]);
  const permissions = useManyNamespacePermissions(candidates);
  return {
    checked: (nsList.loaded || !!nsList.error) && (vms.loaded || !!vms.error) && candidates.every((n) => permissions.has(n)),
    namespaces: candidates.filter((n) => permissions.get(n)?.createVM && (n !== extra || nsList.items.some((x) => x.metadata.name === n) || vms.items.some((v) => v.metadata.namespace === n))),
    extraAllowed: extra ? permissions.get(extra)?.createVM : undefined,
  };
}
