'use client';
/** The cluster instance types' CPU and memory by name, live, for the size of stopped instance-typed VMs. */
import { useMemo } from 'react';
import type { Instancetype } from '@/lib/kubevirt';
import { ClusterInstancetypeResource, resourcePath } from '@/lib/kubevirt/resources';
import { instancetypeSizes, type InstancetypeSizes } from '@/lib/console/vm-row';
import { useResourceList } from '@/components/live/useResourceList';

export function useInstancetypeSizes(): InstancetypeSizes {
  const types = useResourceList<Instancetype>(resourcePath(ClusterInstancetypeResource, {}));
  return useMemo(() => instancetypeSizes(types.items), [types.items]);
}
