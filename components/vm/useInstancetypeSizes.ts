'use client';
/** The instance types' CPU and memory (cluster ones and every namespace's own), live, for the size of stopped instance-typed VMs. */
import { useMemo } from 'react';
import type { Instancetype } from '@/lib/kubevirt';
import { ClusterInstancetypeResource, InstancetypeResource, resourcePath } from '@/lib/kubevirt/resources';
import { instancetypeSizes, type InstancetypeSizes } from '@/lib/console/vm-row';
import { useResourceList } from '@/components/live/useResourceList';

export function useInstancetypeSizes(): InstancetypeSizes {
  const types = useResourceList<Instancetype>(resourcePath(ClusterInstancetypeResource, {}));
  const own = useResourceList<Instancetype>(resourcePath(InstancetypeResource, {}));
  return useMemo(() => instancetypeSizes(types.items, own.items), [types.items, own.items]);
}
