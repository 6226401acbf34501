import { GroupsTable } from '@/components/groups/GroupsTable';

export default function GroupsPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">VM groups</h1>
      <GroupsTable />
    </div>
  );
}
