import { Suspense } from 'react';
import { CreateVMLink } from '@/components/vm/CreateVMLink';
import { VMTable } from '@/components/vm/VMTable';

export default function VMsPage() {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Virtual machines</h1>
        <CreateVMLink />
      </div>
      <Suspense><VMTable /></Suspense>
    </div>
  );
}
