import { StorageTables } from '@/components/storage/StorageTables';

export default function StoragePage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Storage</h1>
      <StorageTables />
    </div>
  );
}
