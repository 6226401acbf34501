'use client';
/** One-click migrate with an optional target: only Ready, schedulable nodes other than the current one. */
import { useState } from 'react';
import { migrationTargets } from '@/lib/console/migration-progress';
import { useNodes } from '@/components/live/useCluster';
import { Button } from '@/components/ui/Button';
import { Dialog } from '@/components/ui/Dialog';
import { useVMAction } from './useVMAction';

export function MigrateDialog({ namespace, name, currentNode, onClose }: { namespace: string; name: string; currentNode?: string; onClose: () => void }) {
  const { items: nodes } = useNodes();
  const targets = migrationTargets(nodes, currentNode);
  const [target, setTarget] = useState('');
  const run = useVMAction();
  const go = async () => {
    const body = target ? { addedNodeSelector: { 'kubernetes.io/hostname': target } } : {};
    onClose();
    await run('migrate', namespace, name, body);
  };
  return (
    <Dialog open onClose={onClose} title={`Migrate ${name}`}>
      <p className="text-sm text-slate-600 dark:text-slate-300">Moves the running guest to another node without stopping it{currentNode ? ` (now on ${currentNode})` : ''}.</p>
      <label className="mt-4 block text-sm font-medium" htmlFor="target">Target node</label>
      <select id="target" value={target} onChange={(e) => setTarget(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 bg-transparent px-2 py-1.5 text-sm dark:border-slate-700">
        <option value="">Any node the scheduler picks</option>
        {targets.map((n) => <option key={n} value={n}>{n}</option>)}
      </select>
      {targets.length === 0 && <p className="mt-2 text-sm text-amber-700 dark:text-amber-400">No other Ready, schedulable node: the migration will wait for one.</p>}
      <div className="mt-5 flex justify-end gap-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="primary" onClick={go} autoFocus data-testid="migrate-confirm">Migrate</Button>
      </div>
    </Dialog>
  );
}
