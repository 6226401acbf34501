'use client';
/** "Create VM" for those who may create; a view-only sign-in sees why there is no button. */
import Link from 'next/link';
import { useSession } from '@/components/live/useSession';

export function CreateVMLink() {
  const session = useSession();
  if (!session.loaded) return <span />;
  if (!session.canWrite) return <span className="text-xs text-slate-500 dark:text-slate-400">View only: you cannot create VMs.</span>;
  return <Link href="/vms/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Create VM</Link>;
}
