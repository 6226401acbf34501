/**
 * The evacuation controller, wired (KubeVirt's pkg/virt-controller/watch/drain/evacuation): VMI and
 * VMIM informers enqueue VMI keys; `execute` plans (pure) and creates at most one evacuation VMIM
 * per VMI, as virt-controller's own identity (so `priority` passes admission). Expectations keep a
 * lagging cache from creating a second one.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration } from '../../../lib/kubevirt';
import type { KubeClients } from '../../kube/clients';
import { Controller } from '../../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import { Expectations } from '../../kube/expectations';
import { Informer } from '../../kube/informer';
import { messageOf } from '../../kube/api-errors';
import { collectionPath, VirtualMachineInstanceMigrationResource, VirtualMachineInstanceResource } from '../../kube/resources';
import { log } from '../../log';
import { Annotation } from '../migration/constants';
import { isFinalPhase, migrationVMIKey, ownState, phaseOf } from '../migration/migration-state';
import { DEFAULT_EVACUATION_LIMITS, planEvacuation, renderEvacuationMigration, type EvacuationLimits } from './plan-evacuation';

export interface EvacuationControllerOptions {
  clients: KubeClients;
  recorder: EventRecorder;
  /** fixed limits, or read on every sync (the KubeVirt CR's migrations) */
  limits?: Partial<EvacuationLimits> | (() => Partial<EvacuationLimits>);
}

const BY_VMI = 'vmi';
export const Reason = { SuccessfulCreate: 'SuccessfulCreate', FailedCreate: 'FailedCreate' } as const;

type VMIM = VirtualMachineInstanceMigration;
type K<T> = T & KubernetesObject;

export class EvacuationController {
  readonly vmis: Informer<K<VirtualMachineInstance>>;
  readonly vmims: Informer<K<VMIM>>;
  readonly expectations = new Expectations();
  private readonly controller: Controller;
  private readonly log = log.child({ component: 'evacuation-controller' });

  private get limits(): EvacuationLimits {
    const l = this.opts.limits;
    return { ...DEFAULT_EVACUATION_LIMITS, ...(typeof l === 'function' ? l() : l) };
  }

  constructor(private readonly opts: EvacuationControllerOptions) {
    const kc = opts.clients.kc;
    this.vmis = new Informer({ kc, path: collectionPath(VirtualMachineInstanceResource) });
    this.vmims = new Informer<K<VMIM>>({ kc, path: collectionPath(VirtualMachineInstanceMigrationResource), indexers: { [BY_VMI]: (m) => [migrationVMIKey(m)] } });
    this.controller = new Controller({ name: 'evacuation-controller', execute: (key) => this.execute(key), informers: [this.vmis, this.vmims], workers: 1 });
    this.vmis.on(this.controller.enqueueHandlers());
    this.vmims.on({ add: (m) => this.onMigration(m, true), update: (_o, m) => this.onMigration(m), delete: (m) => this.onMigration(m) });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.vmis.run(signal), this.vmims.run(signal), this.controller.run(signal)]);
  }

  private onMigration(m: VMIM, added = false): void {
    const key = migrationVMIKey(m);
    if (added && m.metadata.annotations?.[Annotation.EvacuationMigration]) this.expectations.creationObserved(key);
    this.controller.enqueue(key);
    // a finished migration frees a slot: marked VMIs waiting on the limits may go now
    if (isFinalPhase(phaseOf(m))) for (const v of this.vmis.list() as VirtualMachineInstance[]) if (v.status?.evacuationNodeName) this.controller.enqueue(v as KubernetesObject);
  }

  private activeMigrations() {
    return (this.vmims.list() as VMIM[]).filter((m) => !isFinalPhase(phaseOf(m))).map((vmim) => {
      const vmi = this.vmis.get(migrationVMIKey(vmim)) as VirtualMachineInstance | undefined;
      return { vmim, sourceNode: ownState(vmim, vmi)?.sourceNode ?? vmi?.status?.nodeName };
    });
  }

  async execute(key: string): Promise<void> {
    const vmi = this.vmis.get(key) as VirtualMachineInstance | undefined;
    if (!vmi) return this.expectations.deleteExpectations(key);
    if (!this.expectations.satisfied(key)) return;
    const own = this.vmims.byIndex(BY_VMI, key) as VMIM[];
    const decision = planEvacuation({ vmi, own, active: this.activeMigrations(), limits: this.limits, now: new Date() });
    if (decision.action === 'wait') return this.controller.enqueueAfter(key, decision.retryAfterMs);
    if (decision.action === 'none') return;
    await this.createMigration(key, vmi, decision.node);
  }

  private async createMigration(key: string, vmi: VirtualMachineInstance, node: string): Promise<void> {
    const namespace = vmi.metadata.namespace ?? 'default';
    this.expectations.expectCreations(key, 1);
    try {
      const created = await this.opts.clients.migrations.create(namespace, renderEvacuationMigration(vmi, node) as KubernetesObject);
      this.log.info({ namespace, vmi: vmi.metadata.name, node, migration: created.metadata?.name }, 'evacuation migration created');
      void this.opts.recorder.record(vmi as KubernetesObject, EventTypeNormal, Reason.SuccessfulCreate, `Created Migration ${created.metadata?.name} for evacuation of node ${node}`);
    } catch (err) {
      this.expectations.creationObserved(key);
      void this.opts.recorder.record(vmi as KubernetesObject, EventTypeWarning, Reason.FailedCreate, `Error creating a Migration for evacuation: ${messageOf(err)}`);
      throw err;
    }
  }
}
