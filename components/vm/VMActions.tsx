'use client';
/**
 * The action buttons the user's rights in the VM's namespace allow (one rules review per namespace),
 * enabled as the VM's state allows; destructive ones ask first; Migrate opens the dialog.
 */
import { useState } from 'react';
import type { VirtualMachine, VirtualMachineInstance } from '@/lib/kubevirt';
import { ACTION_SPECS, computeActionAvailability, VM_ACTIONS, type VMAction } from '@/lib/console/vm-actions';
import { useNamespacePermissions } from '@/components/live/useNamespacePermissions';
import { mayActOnVMs } from '@/lib/console/namespace-permissions';
import { Button } from '@/components/ui/Button';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { MigrateDialog } from './MigrateDialog';
import { useVMAction } from './useVMAction';

const COMPACT: VMAction[] = ['start', 'unpause', 'stop', 'migrate'];

export function VMActions({ vm, vmi, compact }: { vm: VirtualMachine; vmi?: VirtualMachineInstance; compact?: boolean }) {
  const ns = vm.metadata.namespace!;
  const permissions = useNamespacePermissions(ns);
  const run = useVMAction();
  const [confirm, setConfirm] = useState<VMAction>();
  const [migrating, setMigrating] = useState(false);
  const avail = computeActionAvailability(vm, vmi, permissions ? { permissions } : { canWrite: false });
  const name = vm.metadata.name!;
  const click = (a: VMAction) => {
    if (a === 'migrate') setMigrating(true);
    else if (ACTION_SPECS[a].destructive) setConfirm(a);
    else void run(a, ns, name);
  };
  // actions RBAC refuses here are not shown; those the VM's state refuses are shown disabled, with the reason
  const shown = compact ? COMPACT.filter((a) => avail[a] === undefined).slice(0, 2) : VM_ACTIONS.filter((a) => permissions?.actions[a]);
  if (!permissions) return <span />;
  if (!mayActOnVMs(permissions)) return compact ? <span /> : <span className="text-xs text-slate-500 dark:text-slate-400" title={`Your sign-in may not act on VMs in namespace ${ns}`}>View only: actions are hidden.</span>;
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
