import type { Cause } from '@/lib/console/why-not-running';

const TONE = { info: 'border-sky-300 bg-sky-50 dark:border-sky-900 dark:bg-sky-950/40', warning: 'border-amber-300 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/40', error: 'border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950/40' };

export function WhyNotRunning({ causes }: { causes: Cause[] }) {
  if (!causes.length) return null;
  return (
    <section aria-label="Why isn't it running?" className="flex flex-col gap-2" data-testid="why-not-running">
      <h2 className="text-sm font-semibold">Why isn&apos;t it running?</h2>
      {causes.map((c, i) => (
        <div key={i} className={`rounded-lg border p-3 text-sm ${TONE[c.severity]}`}>
          <p className="font-medium">{c.title}</p>
          {c.detail && <p className="mt-0.5 text-slate-700 dark:text-slate-300">{c.detail}</p>}
          {c.fix && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">What to do: {c.fix}</p>}
        </div>
      ))}
    </section>
  );
}
