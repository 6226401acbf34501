/**
 * KubeVirt's `kubevirt.io/virtual-machine-unpaused` readiness gate: virt-handler sets the launcher
 * Pod's condition True while the guest runs unpaused on this node and False otherwise (paused,
 * still starting, a migration target not yet switched over), so the Pod — and the Services and
 * EndpointSlices that select it — is Ready only when the guest can answer.
 */
import type { CoreV1Api, V1Pod } from '@kubernetes/client-node';
import { READINESS_GATE_UNPAUSED } from '../../lib/kubevirt/labels';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { strategicMergePatch } from '../kube/clients';
import { formatKubeTime } from '../kube/time';

export class LauncherReadiness {
  /** pod UID → [pod name, last status written] */
  private readonly known = new Map<string, { name: string; status?: string }>();

  /** `podByUID`: this node's launcher Pods, cached (launcher-pods.ts); a Pod not seen yet is synced again when its event comes */
  constructor(private readonly core: Pick<CoreV1Api, 'patchNamespacedPodStatus'>, private readonly podByUID: (uid: string) => V1Pod | undefined) {}

  async sync(vmi: VirtualMachineInstance, podUID: string, ready: boolean): Promise<void> {
    const namespace = vmi.metadata.namespace ?? 'default';
    const status = ready ? 'True' : 'False';
    let entry = this.known.get(podUID);
    if (entry?.status === status) return;
    if (!entry) {
      const pod = this.podByUID(podUID);
      if (!pod?.metadata?.name) return;
      if (!pod.spec?.readinessGates?.some((g) => g.conditionType === READINESS_GATE_UNPAUSED)) return; // an older Pod without the gate
      // a gate condition not set yet already keeps the Pod unready: no write needed to say False
      const current = pod.status?.conditions?.find((c) => c.type === READINESS_GATE_UNPAUSED)?.status ?? 'False';
      entry = { name: pod.metadata.name, status: current };
      this.known.set(podUID, entry);
      if (current === status) return;
    }
    const condition = { type: READINESS_GATE_UNPAUSED, status, lastProbeTime: null, lastTransitionTime: formatKubeTime(), reason: ready ? 'GuestRunning' : 'GuestNotRunning' };
    await this.core.patchNamespacedPodStatus({ namespace, name: entry.name, body: { status: { conditions: [condition] } } }, strategicMergePatch);
    entry.status = status;
  }

  forget(podUID: string): void {
    this.known.delete(podUID);
  }
}
