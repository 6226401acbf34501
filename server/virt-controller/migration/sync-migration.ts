/**
 * Executes the planned actions for one VMIM against the API server, recording an event for each
 * step. Returns the delay after which the key must be looked at again, if any.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration } from '../../../lib/kubevirt';
import { isNotFound, messageOf } from '../../kube/api-errors';
import { toDeleteBody, type KubeClients } from '../../kube/clients';
import { SyncError } from '../../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import type { Expectations } from '../../kube/expectations';
import type { RenderOptions } from '../vmi/render-launcher-pod';
import { Finalizer, Reason } from './constants';
import { buildHandOffState, mergeState, patchMigrationState, type VMIStatusClient } from './hand-off';
import type { MigrationConfiguration } from './migration-policy';
import type { MigrationAction } from './plan-migration';
import { renderTargetPod } from './render-target-pod';

export interface SyncContext {
  clients: Pick<KubeClients, 'core' | 'vmis' | 'migrations'>;
  recorder: Pick<EventRecorder, 'record'>;
  expectations: Expectations;
  render?: RenderOptions;
  /** resolved at hand-off time (later policy changes do not affect a running migration) */
  resolveConfig: (vmi: VirtualMachineInstance) => { config: MigrationConfiguration; policyName?: string };
}

const k = (o: unknown) => o as KubernetesObject;

async function deletePod(ctx: SyncContext, pod: { metadata?: { name?: string; namespace?: string; uid?: string } }): Promise<void> {
  const { name = '', namespace = 'default', uid } = pod.metadata ?? {};
  await ctx.clients.core.deleteNamespacedPod({ name, namespace, body: toDeleteBody({ uid }) }).catch((err) => { if (!isNotFound(err)) throw err; });
}

async function createTargetPod(ctx: SyncContext, key: string, vmim: VirtualMachineInstanceMigration, vmi: VirtualMachineInstance): Promise<void> {
  const body = renderTargetPod(vmi, vmim, ctx.render);
  ctx.expectations.expectCreations(key, 1);
  try {
    const pod = await ctx.clients.core.createNamespacedPod({ namespace: vmi.metadata.namespace ?? 'default', body });
    void ctx.recorder.record(k(vmim), EventTypeNormal, Reason.SuccessfulCreate, `Created migration target pod ${pod.metadata?.namespace}/${pod.metadata?.name} with uuid ${pod.metadata?.uid} for migration ${vmim.metadata.uid}`);
  } catch (err) {
    ctx.expectations.lowerExpectations(key, 1);
    void ctx.recorder.record(k(vmim), EventTypeWarning, Reason.FailedCreate, `Error creating pod: ${messageOf(err)}`);
    throw new SyncError(Reason.FailedCreate, messageOf(err));
  }
}

type Step = (a: MigrationAction) => Promise<number | undefined | void>;

export async function runMigrationActions(ctx: SyncContext, key: string, vmim: VirtualMachineInstanceMigration, vmi: VirtualMachineInstance | undefined, actions: MigrationAction[]): Promise<number | undefined> {
  const vmis = ctx.clients.vmis as unknown as VMIStatusClient;
  let requeue: number | undefined;
  const steps: Record<MigrationAction['kind'], Step> = {
    createTargetPod: () => createTargetPod(ctx, key, vmim, vmi!),
    deleteTargetPod: async (a) => {
      if (a.kind !== 'deleteTargetPod') return;
      if (a.unschedulable) void ctx.recorder.record(k(vmim), EventTypeWarning, Reason.MigrationTargetPodUnschedulable, a.why);
      await deletePod(ctx, a.pod);
      void ctx.recorder.record(k(vmim), EventTypeNormal, Reason.SuccessfulDelete, `Deleted migration target pod ${a.pod.metadata?.name}: ${a.why}`);
    },
    handOff: async (a) => {
      if (a.kind !== 'handOff') return;
      const { config, policyName } = ctx.resolveConfig(vmi!);
      const state = buildHandOffState(vmim, vmi!, a.targetPod, a.sourcePod, config, policyName);
      await patchMigrationState(vmis, vmi!, state);
      void ctx.recorder.record(k(vmi), EventTypeNormal, Reason.SuccessfulHandOver, `Migration target pod is ready for preparation by virt-handler on node ${state.targetNode}.`);
    },
    requestAbort: async () => {
      await patchMigrationState(vmis, vmi!, mergeState(vmi!, { abortRequested: true }));
      void ctx.recorder.record(k(vmim), EventTypeNormal, Reason.AbortRequested, 'Migration abort requested');
    },
    markVMIStateFailed: async (a) => {
      if (a.kind !== 'markVMIStateFailed') return;
      const now = new Date().toISOString();
      await patchMigrationState(vmis, vmi!, mergeState(vmi!, { failed: true, completed: true, endTimestamp: now, failureReason: a.reason }));
    },
    deleteSourcePod: async (a) => { if (a.kind === 'deleteSourcePod') await deletePod(ctx, a.pod); },
    addFinalizer: async () => {
      await ctx.clients.migrations.jsonPatch(vmim.metadata.namespace ?? 'default', vmim.metadata.name ?? '', [
        { op: 'test', path: '/metadata/resourceVersion', value: vmim.metadata.resourceVersion },
        { op: 'add', path: '/metadata/finalizers', value: [...(vmim.metadata.finalizers ?? []), Finalizer.MigrationJob] },
      ]);
    },
    removeFinalizer: async () => {
      const finalizers = (vmim.metadata.finalizers ?? []).filter((f) => f !== Finalizer.MigrationJob);
      await ctx.clients.migrations.jsonPatch(vmim.metadata.namespace ?? 'default', vmim.metadata.name ?? '', [
        { op: 'test', path: '/metadata/resourceVersion', value: vmim.metadata.resourceVersion },
        { op: 'replace', path: '/metadata/finalizers', value: finalizers },
      ]).catch((err) => { if (!isNotFound(err)) throw err; });
    },
    requeueAfter: async (a) => { if (a.kind === 'requeueAfter') requeue = Math.min(requeue ?? a.ms, a.ms); },
  };
  for (const a of actions) await steps[a.kind](a);
  return requeue;
}
