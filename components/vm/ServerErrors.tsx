/** A refused write: the server's message, and each cause at its field (with the YAML line when known). */
import { useEffect, useRef } from 'react';
import type { ApiFailure } from '@/lib/console/api-status';

export function ServerErrors({ failure, lineOf }: { failure?: ApiFailure; lineOf?: (field: string) => number | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => { box.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }); }, [failure]); // below a tall editor it would be off screen
  if (!failure) return null;
  return (
    <div ref={box} role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
      <p className="font-medium">{failure.message}</p>
      {failure.causes.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {failure.causes.map((c, i) => {
            const line = c.field && lineOf ? lineOf(c.field) : undefined;
            return <li key={i}>{c.field && <code className="font-mono text-xs">{c.field}</code>}{line ? <span className="text-xs"> (line {line})</span> : null}{c.field ? ': ' : ''}{c.message}</li>;
          })}
        </ul>
      )}
    </div>
  );
}
