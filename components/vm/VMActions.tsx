'use client';
/** The action buttons a VM's state allows; destructive ones ask first; Migrate opens the dialog. */
import { useState } from 'react';
import type { VirtualMachine, VirtualMachineInstance } from '@/lib/kubevirt';
import { ACTION_SPECS, computeActionAvailability, VM_ACTIONS, type VMAction } from '@/lib/console/vm-actions';
import { useSession } from '@/components/live/useSession';
import { Button } from '@/components/ui/Button';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { MigrateDialog } from './MigrateDialog';
import { useVMAction } from './useVMAction';

const COMPACT: VMAction[] = ['start', 'unpause', 'stop', 'migrate'];

export function VMActions({ vm, vmi, compact }: { vm: VirtualMachine; vmi?: VirtualMachineInstance; compact?: boolean }) {
  const session = useSession();
  const run = useVMAction();
  const [confirm, setConfirm] = useState<VMAction>();
  const [migrating, setMigrating] = useState(false);
  const avail = computeActionAvailability(vm, vmi, { canWrite: session.canWrite });
  const ns = vm.metadata.namespace!;
  const name = vm.metadata.name!;
  const click = (a: VMAction) => {
    if (a === 'migrate') setMigrating(true);
    else if (ACTION_SPECS[a].destructive) setConfirm(a);
    else void run(a, ns, name);
  };
  const shown = compact ? COMPACT.filter((a) => avail[a] === undefined).slice(0, 2) : VM_ACTIONS;
  if (!session.loaded) return <span />;
  if (!session.canWrite) return compact ? <span /> : <span className="text-xs text-slate-500 dark:text-slate-400">View only: actions are hidden.</span>;
  return (
    <div className="flex flex-wrap gap-1.5">
      {shown.map((a) => (
        <Button key={a} variant={a === 'delete' || a === 'forceStop' ? 'danger' : a === 'start' ? 'primary' : 'secondary'}
          disabled={avail[a] !== undefined} title={avail[a]} onClick={() => click(a)} data-action={a} className={compact ? '!px-2 !py-0.5 !text-xs' : ''}>
          {ACTION_SPECS[a].label}
        </Button>
      ))}
      <ConfirmDialog open={!!confirm} title={confirm ? `${ACTION_SPECS[confirm].label} ${name}?` : ''}
        message={confirm === 'delete' ? `This deletes the VirtualMachine ${ns}/${name} and stops its guest. It cannot be undone.` : `The guest of ${name} will be ${confirm === 'forceStop' ? 'powered off at once, without a clean shutdown' : confirm === 'softReboot' ? 'rebooted from inside' : 'shut down'}.`}
        confirmLabel={confirm ? ACTION_SPECS[confirm].label : ''}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => { const a = confirm!; setConfirm(undefined); void run(a, ns, name); }} />
      {migrating && <MigrateDialog namespace={ns} name={name} currentNode={vmi?.status?.nodeName} onClose={() => setMigrating(false)} />}
    </div>
  );
}
