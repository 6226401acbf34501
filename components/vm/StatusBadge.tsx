const COLORS: Record<string, string> = {
  Running: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300',
  Migrating: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-300',
  Starting: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-300',
  Provisioning: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-300',
  Paused: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
  Stopping: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
  Terminating: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
  Stopped: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};
const ERROR = 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300';

export function StatusBadge({ status, title }: { status: string; title?: string }) {
  return (
    <span title={title} data-status={status} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${COLORS[status] ?? ERROR}`}>
      {status}
    </span>
  );
}
