'use client';
/** "Create VM" for those who may create VMs in some namespace they see; a view-only sign-in sees why there is no button. */
import Link from 'next/link';
import { useCreatableNamespaces } from './useCreatableNamespaces';

export function CreateVMLink() {
  const creatable = useCreatableNamespaces();
  if (creatable.namespaces.length) return <Link href="/vms/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Create VM</Link>;
  if (!creatable.checked) return <span />;
  return <span className="text-xs text-slate-500 dark:text-slate-400">View only: you cannot create VMs.</span>;
}
