/**
 * The migration controller, wired (KubeVirt's pkg/virt-controller/watch/migration): informers on
 * VMIMs, VMIs, launcher Pods, MigrationPolicies and Namespaces only enqueue VMIM keys; `execute`
 * reads the caches, computes the status (pure), writes it once if changed, then plans and runs the
 * actions (pure plan, thin executor).
 */
import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import type { MigrationPolicy, VirtualMachineInstance, VirtualMachineInstanceMigration } from '../../../lib/kubevirt';
import type { KubeClients } from '../../kube/clients';
import { Controller, controllerOwnerKey } from '../../kube/controller';
import type { WorkQueueMetricsProvider } from '../../kube/workqueue';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import { Expectations } from '../../kube/expectations';
import { Informer } from '../../kube/informer';
import { NamespaceQuotaCaches } from '../namespace-quota-caches';
import { collectionPath, keyOf, PodResource, VirtualMachineInstanceMigrationResource, VirtualMachineInstanceResource } from '../../kube/resources';
import { log } from '../../log';
import { APP_VIRT_LAUNCHER } from '../vmi/constants';
import { isLauncherPodOf } from '../vmi/pod-state';
import type { RenderOptions } from '../vmi/render-launcher-pod';
import { autoLimitsFromCaches, type QuotaLike } from '../vmi/auto-resource-limits';
import { computeMigrationStatus } from './compute-migration-status';
import { DEFAULT_MIGRATION_SETTINGS, Label, Phase, Reason, type MigrationSettings } from './constants';
import { isFinalPhase, migrationVMIKey, ownState, phaseOf, targetPodsOf } from './migration-state';
import { resolveMigrationConfiguration, selectMigrationPolicy } from './migration-policy';
import { planMigration } from './plan-migration';
import { runMigrationActions, type SyncContext } from './sync-migration';
import { decideThrottle } from './throttle';
import { hasQuotaRejection, withQuotaRejection } from './quota-rejection';
import { messageOf } from '../../kube/api-errors';

export interface MigrationControllerOptions {
  clients: KubeClients;
  recorder: EventRecorder;
  render?: RenderOptions;
  /** fixed settings, or read on every sync (the KubeVirt CR's migrations) */
  settings?: Partial<MigrationSettings> | (() => Partial<MigrationSettings>);
  workers?: number;
  /** work-queue metrics (virt-controller's /metrics) */
  metrics?: WorkQueueMetricsProvider;
  /** the process's ResourceQuota and Namespace caches (shared with the VMI controller); own ones when absent */
  caches?: NamespaceQuotaCaches;
}

const BY_VMI = 'vmi';
const BY_UID = 'uid';
const BY_VMI_UID = 'vmiUID';
const VMI_KIND = 'VirtualMachineInstance';
const POLICIES_PATH = '/apis/migrations.kubevirt.io/v1alpha1/migrationpolicies';
const BY_NAMESPACE = 'namespace';

type VMIM = VirtualMachineInstanceMigration;
type K<T> = T & KubernetesObject;

export class MigrationController {
  readonly vmims: Informer<K<VMIM>>;
  readonly vmis: Informer<K<VirtualMachineInstance>>;
  readonly pods: Informer<V1Pod>;
  readonly policies: Informer<K<MigrationPolicy>>;
  readonly namespaces: Informer<KubernetesObject>;
  readonly quotas: Informer<QuotaLike & KubernetesObject>;
  private readonly caches: NamespaceQuotaCaches;
  /** the launcher render options, with the automatic resource limits the namespace's quotas ask for */
  private readonly render: RenderOptions;
  readonly expectations = new Expectations();
  private readonly controller: Controller;
  private readonly log = log.child({ component: 'migration-controller' });

  private get settings(): MigrationSettings {
    const s = this.opts.settings;
    return { ...DEFAULT_MIGRATION_SETTINGS, ...(typeof s === 'function' ? s() : s) };
  }

  /** Looks at every migration again (a changed limit may let a throttled one go). */
  resyncAll(): void {
    for (const m of this.vmims.list()) this.controller.enqueue(m);
  }

  constructor(private readonly opts: MigrationControllerOptions) {
    const kc = opts.clients.kc;
    this.vmims = new Informer<K<VMIM>>({ kc, path: collectionPath(VirtualMachineInstanceMigrationResource), indexers: { [BY_VMI]: (m) => [migrationVMIKey(m)], [BY_UID]: (m) => [m.metadata?.uid], [BY_NAMESPACE]: (m) => [m.metadata?.namespace] } });
    this.vmis = new Informer({ kc, path: collectionPath(VirtualMachineInstanceResource) });
    this.pods = new Informer({
      kc, path: collectionPath(PodResource), labelSelector: `${Label.App}=${APP_VIRT_LAUNCHER}`,
      indexers: { [BY_VMI_UID]: (p: V1Pod) => [p.metadata?.labels?.[Label.CreatedBy]] },
    });
    this.policies = new Informer({ kc, path: POLICIES_PATH });
    this.caches = opts.caches ?? new NamespaceQuotaCaches(kc);
    this.namespaces = this.caches.namespaces;
    this.quotas = this.caches.quotas;
    this.render = { ...opts.render, autoLimits: autoLimitsFromCaches(this.quotas, this.namespaces) };
    this.controller = new Controller({ name: 'migration-controller', queueName: 'virt-controller-migration', metrics: opts.metrics, execute: (key) => this.execute(key), informers: [this.vmims, this.vmis, this.pods, this.quotas, this.namespaces], workers: opts.workers ?? 3 });
    this.vmims.on({ ...this.controller.enqueueHandlers(), delete: (m) => { this.expectations.deleteExpectations(keyOf(m)); } });
    const byVMI = (vmi: VirtualMachineInstance) => this.enqueueVMI(keyOf(vmi));
    this.vmis.on({ add: byVMI, update: (_o, v) => byVMI(v), delete: byVMI });
    this.pods.on({ add: (p) => this.onPod(p, true), update: (_o, p) => this.onPod(p), delete: (p) => this.onPod(p) });
    // KubeVirt: a changed or deleted quota may make room for migrations its quota refused
    this.quotas.on({ update: (_o, q) => this.enqueueQuotaRejected(q), delete: (q) => this.enqueueQuotaRejected(q) });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.vmims, this.vmis, this.pods, this.policies].map((i) => i.run(signal)).concat(this.caches.run(signal), this.controller.run(signal)));
  }

  private enqueueVMI(vmiKey: string): void {
    for (const m of this.vmims.byIndex(BY_VMI, vmiKey) as VMIM[]) this.controller.enqueue(m as KubernetesObject);
  }

  private enqueueQuotaRejected(quota: KubernetesObject): void {
    for (const m of this.vmims.byIndex(BY_NAMESPACE, quota.metadata?.namespace ?? '') as VMIM[]) {
      if (hasQuotaRejection(m)) this.controller.enqueue(m as KubernetesObject);
    }
  }

  private onPod(pod: V1Pod, added = false): void {
    const jobUID = pod.metadata?.labels?.[Label.MigrationJobUID];
    const owner = jobUID ? (this.vmims.byIndex(BY_UID, jobUID)[0] as VMIM | undefined) : undefined;
    if (owner && added) this.expectations.creationObserved(keyOf(owner));
    const vmiKey = controllerOwnerKey(pod, VMI_KIND);
    if (vmiKey) this.enqueueVMI(vmiKey);
  }

  private resolveConfig(vmi: VirtualMachineInstance) {
    const ns = this.namespaces.get(vmi.metadata.namespace ?? '') as { metadata?: { labels?: Record<string, string> } } | undefined;
    const policy = selectMigrationPolicy(this.policies.list() as MigrationPolicy[], vmi, ns?.metadata?.labels);
    return { config: resolveMigrationConfiguration(this.settings, policy), policyName: policy?.metadata.name };
  }

  private activeMigrations() {
    return (this.vmims.list() as VMIM[]).filter((m) => !isFinalPhase(phaseOf(m))).map((m) => {
      const vmi = this.vmis.get(migrationVMIKey(m)) as VirtualMachineInstance | undefined;
      return { vmim: m, sourceNode: ownState(m, vmi)?.sourceNode ?? vmi?.status?.nodeName };
    });
  }

  /** Another unfinished VMIM owns the VMI's migrationState and has not completed. */
  private otherOwner(vmim: VMIM, vmi?: VirtualMachineInstance): VMIM | undefined {
    const state = vmi?.status?.migrationState;
    if (!state?.migrationUid || state.migrationUid === vmim.metadata.uid || state.completed) return undefined;
    const other = this.vmims.byIndex(BY_UID, state.migrationUid)[0] as VMIM | undefined;
    return other && !isFinalPhase(phaseOf(other)) ? other : undefined;
  }

  async execute(key: string): Promise<void> {
    const vmim = this.vmims.get(key) as VMIM | undefined;
    if (!vmim) return this.expectations.deleteExpectations(key);
    if (!this.expectations.satisfied(key)) return;
    const vmi = this.vmis.get(migrationVMIKey(vmim)) as VirtualMachineInstance | undefined;
    const pods = vmi ? (this.pods.byIndex(BY_VMI_UID, vmi.metadata.uid ?? '') as V1Pod[]).filter((p) => isLauncherPodOf(p, vmi)) : [];
    const targetPod = targetPodsOf(vmim, pods)[0];
    const sourcePods = pods.filter((p) => p.metadata?.labels?.[Label.MigrationJobUID] !== vmim.metadata.uid);
    const now = new Date();
    const { status, failure } = computeMigrationStatus(vmim, { vmi, targetPod, otherOwner: this.otherOwner(vmim, vmi), now });
    const written = await this.writeStatus(vmim, status, failure);
    const actions = planMigration(written, {
      status, failure, vmi, targetPod, sourcePods, settings: this.settings, now,
      throttle: () => decideThrottle(vmim, vmi?.status?.nodeName, this.activeMigrations(), this.settings),
    });
    const ctx: SyncContext = { clients: this.opts.clients, recorder: this.opts.recorder, expectations: this.expectations, render: this.render, resolveConfig: (v) => this.resolveConfig(v) };
    const requeue = await runMigrationActions(ctx, key, written, vmi, actions).catch(async (err: unknown) => {
      const rejected = targetPod ? undefined : withQuotaRejection(written, messageOf(err), new Date());
      if (rejected) await this.writeStatus(written, rejected);
      throw err;
    });
    if (requeue !== undefined) this.controller.enqueueAfter(key, requeue);
  }

  private async writeStatus(vmim: VMIM, status: NonNullable<VMIM['status']>, failure?: string): Promise<VMIM> {
    if (isDeepStrictEqual(vmim.status ?? {}, status)) return vmim;
    const { namespace = 'default', name = '' } = vmim.metadata;
    const written = (await this.opts.clients.migrations.replaceStatus(namespace, name, { ...vmim, status } as KubernetesObject)) as VMIM;
    const from = phaseOf(vmim);
    const to = status.phase ?? '';
    if (from !== to) {
      this.log.info({ namespace, name, uid: vmim.metadata.uid, from, to, failure }, 'migration phase changed');
      const rec = this.opts.recorder;
      if (to === Phase.Succeeded) void rec.record(written as KubernetesObject, EventTypeNormal, Reason.SuccessfulMigration, 'Source node reported migration succeeded');
      else if (to === Phase.Failed) void rec.record(written as KubernetesObject, EventTypeWarning, Reason.FailedMigration, failure ?? 'Migration failed');
      else void rec.record(written as KubernetesObject, EventTypeNormal, to, `Migration is ${to}`);
    }
    return written;
  }
}
