import type { Condition } from '@/lib/kubevirt';
import { describeCondition, isConditionProblem } from '@/lib/console/condition-text';

export function ConditionsList({ conditions, source }: { conditions: Condition[]; source: string }) {
  if (!conditions.length) return <p className="text-sm text-slate-500 dark:text-slate-400">No {source} conditions yet.</p>;
  return (
    <ul className="flex flex-col gap-1.5 text-sm">
      {conditions.map((c) => (
        <li key={`${source}-${c.type}`} className="flex gap-2">
          <span className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${isConditionProblem(c) ? 'bg-amber-500' : 'bg-emerald-500'}`} />
          <span><span className="font-medium">{c.type}</span> <span className="text-slate-500 dark:text-slate-400">({source}, {c.status})</span> — {describeCondition(c)}</span>
        </li>
      ))}
    </ul>
  );
}
