'use client';
/**
 * The migration the VM page shows above its tabs: the one in flight, and after it ends the same one
 * with its result (duration, downtime, failure reason) until the user dismisses it — a progress bar
 * that vanishes the moment it reaches 100 % tells nobody how it went.
 */
import { useEffect, useState } from 'react';
import { MigrationPhase, type VirtualMachineInstanceMigration } from '@/lib/kubevirt';

const isFinished = (m: VirtualMachineInstanceMigration) => m.status?.phase === MigrationPhase.Succeeded || m.status?.phase === MigrationPhase.Failed;

export function useFollowedMigration(migrations: VirtualMachineInstanceMigration[]) {
  const active = migrations.find((m) => !isFinished(m));
  const [followed, setFollowed] = useState<string>();
  const activeUid = active?.metadata.uid;
  useEffect(() => { if (activeUid) setFollowed(activeUid); }, [activeUid]);
  const shown = active ?? migrations.find((m) => m.metadata.uid === followed);
  return { shown, finished: !!shown && isFinished(shown), dismiss: () => setFollowed(undefined) };
}
