/**
 * The launcher eviction interceptor (KubeVirt's pod-eviction admitter, `pods/eviction` CREATE):
 * a launcher Pod whose VMI should live-migrate on eviction is not evicted; the VMI is marked
 * (`status.evacuationNodeName`) and the eviction is refused with 429, so `kubectl drain` retries
 * until the evacuation migration has moved the guest and the old Pod has completed.
 */
import type { VirtualMachineInstance } from '../../../../lib/kubevirt';
import { hasCondition } from '../../../../lib/kubevirt/conditions';
import { Annotation, Label, LAUNCHER_APP_VALUE } from '../../../../lib/kubevirt/labels';
import type { AdmissionRequest } from '../admission-review';

export const HTTP_TOO_MANY_REQUESTS = 429;
export const TOO_MANY_REQUESTS_REASON = 'TooManyRequests';

export const EvictionMessage = {
  triggered: (ns: string, name: string) => `Eviction triggered evacuation of VMI "${ns}/${name}"`,
  inProgress: (ns: string, name: string) => `Evacuation in progress: Eviction triggered evacuation of VMI "${ns}/${name}"`,
  notMigratable: (name: string) => `VMI ${name} is configured with an eviction strategy but is not live-migratable`,
  targetPod: 'Eviction request for target Pod',
  markFailed: (err: string) => `kubevirt failed marking the vmi for eviction: ${err}`,
} as const;

/** The part of a Pod the interceptor reads. */
export interface EvictedPod {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { nodeName?: string };
  status?: { phase?: string };
}

export interface EvictionLookups {
  getPod(namespace: string, name: string): Promise<EvictedPod | undefined>;
  getVMI(namespace: string, name: string): Promise<VirtualMachineInstance | undefined> | VirtualMachineInstance | undefined;
  /** JSON-patches `status.evacuationNodeName` (KubeVirt's markVMI). */
  markForEvacuation(namespace: string, vmiName: string, node: string): Promise<void>;
}

export interface EvictionContext extends EvictionLookups {
  /** Cluster-wide default eviction strategy (KubeVirt CR `spec.configuration.evictionStrategy`). */
  clusterStrategy?: string;
}

export type EvictionVerdict = { allowed: true } | { allowed: false; code: number; message: string };

const ALLOW: EvictionVerdict = { allowed: true };
const deny = (message: string): EvictionVerdict => ({ allowed: false, code: HTTP_TOO_MANY_REQUESTS, message });
const isMigratable = (vmi: VirtualMachineInstance) => hasCondition(vmi, 'LiveMigratable', 'True');
const isLauncherPod = (pod: EvictedPod) => pod.metadata?.labels?.[Label.App] === LAUNCHER_APP_VALUE;
const isCompleted = (pod: EvictedPod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** undefined = the VMI is not to be evacuated (the Pod may go); otherwise a verdict now. */
function decideStrategy(vmi: VirtualMachineInstance, strategy: string | undefined): EvictionVerdict | 'evacuate' {
  switch (strategy) {
    case 'LiveMigrate': return isMigratable(vmi) ? 'evacuate' : deny(EvictionMessage.notMigratable(vmi.metadata.name ?? ''));
    case 'LiveMigrateIfPossible': return isMigratable(vmi) ? 'evacuate' : ALLOW;
    case 'External': return 'evacuate';
    default: return ALLOW;
  }
}

/** A Pod that is not the VMI's current one: a migration target still in flight is protected. */
function decideOtherPod(pod: EvictedPod, vmi: VirtualMachineInstance): EvictionVerdict {
  const state = vmi.status?.migrationState;
  const jobUID = pod.metadata?.labels?.[Label.MigrationJobUID];
  const inFlight = !!jobUID && state?.migrationUid === jobUID && !state.completed && !state.failed;
  return inFlight ? deny(EvictionMessage.targetPod) : ALLOW;
}

export async function validateEviction(req: AdmissionRequest, ctx: EvictionContext): Promise<EvictionVerdict> {
  const ns = req.namespace ?? '';
  const pod = req.name ? await ctx.getPod(ns, req.name) : undefined;
  if (!pod || !isLauncherPod(pod) || isCompleted(pod)) return ALLOW;
  const vmiName = pod.metadata?.annotations?.[Annotation.Domain];
  if (!vmiName) return ALLOW;
  const vmi = await ctx.getVMI(ns, vmiName);
  if (!vmi) return ALLOW;
  const decision = decideStrategy(vmi, vmi.spec.evictionStrategy ?? ctx.clusterStrategy);
  if (decision !== 'evacuate') return decision;
  const node = vmi.status?.nodeName;
  if (!node || node !== pod.spec?.nodeName) return decideOtherPod(pod, vmi);
  if (vmi.status?.evacuationNodeName) return deny(EvictionMessage.inProgress(ns, vmiName));
  if (!req.dryRun) {
    try {
      await ctx.markForEvacuation(ns, vmiName, node);
    } catch (err) {
      return deny(EvictionMessage.markFailed(err instanceof Error ? err.message : String(err)));
    }
  }
  return deny(EvictionMessage.triggered(ns, vmiName));
}
