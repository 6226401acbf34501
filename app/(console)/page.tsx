import { Overview } from '@/components/overview/Overview';

export default function OverviewPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Overview</h1>
      <Overview />
    </div>
  );
}
