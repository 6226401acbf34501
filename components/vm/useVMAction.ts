'use client';
/** Runs a lifecycle action with immediate feedback and the server's message on refusal. */
import { useCallback } from 'react';
import { actionRequest, ACTION_SPECS, type VMAction } from '@/lib/console/vm-actions';
import { kubeFetch } from '@/components/live/api-fetch';
import { useToast } from '@/components/ui/Toasts';

const PROGRESS: Partial<Record<VMAction, string>> = {
  start: 'Starting', stop: 'Stopping', forceStop: 'Force-stopping', restart: 'Restarting', pause: 'Pausing',
  unpause: 'Unpausing', softReboot: 'Rebooting', migrate: 'Migrating', delete: 'Deleting',
};

export function useVMAction() {
  const toast = useToast();
  return useCallback(async (action: VMAction, namespace: string, name: string, body?: object): Promise<boolean> => {
    const req = actionRequest(action, namespace, name);
    toast('info', `${PROGRESS[action] ?? ACTION_SPECS[action].label} ${name}…`);
    try {
      await kubeFetch(req.method, req.path, body ?? req.body);
      toast('success', `${ACTION_SPECS[action].label}: ${name} — request accepted`);
      return true;
    } catch (err) {
      toast('error', `${ACTION_SPECS[action].label} ${name} refused: ${(err as Error).message}`);
      return false;
    }
  }, [toast]);
}
