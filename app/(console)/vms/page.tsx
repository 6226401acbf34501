import Link from 'next/link';
import { Suspense } from 'react';
import { VMTable } from '@/components/vm/VMTable';

export default function VMsPage() {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Virtual machines</h1>
        <Link href="/vms/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Create VM</Link>
      </div>
      <Suspense><VMTable /></Suspense>
    </div>
  );
}
