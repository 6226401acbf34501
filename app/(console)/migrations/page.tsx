import { MigrationsTable } from '@/components/migrations/MigrationsTable';

export default function MigrationsPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Migrations</h1>
      <MigrationsTable />
    </div>
  );
}
