import { NodesTable } from '@/components/nodes/NodesTable';

export default function NodesPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Nodes</h1>
      <NodesTable />
    </div>
  );
}
