/**
 * virt-handler's migration loop for one node, beside the VMI loop (it shares its VMI cache and
 * launcher connections): VMIs whose migrationState names this node as target or source are
 * synced by MigrationTarget / MigrationSource. A VMIM cache maps migration UIDs to objects for
 * the progress annotation.
 */
import { apiInputReader } from '../launcher-inputs';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration, VMIMigrationState } from '../../../lib/kubevirt';
import type { KubeClients } from '../../kube/clients';
import { Controller } from '../../kube/controller';
import type { EventRecorder } from '../../kube/events';
import { Informer } from '../../kube/informer';
import { collectionPath, VirtualMachineInstanceMigrationResource } from '../../kube/resources';
import type { LauncherConnections } from '../launcher-connections';
import { MigrationSource } from './migration-source';
import { syncMigrationTarget, type MigrationDeps } from './migration-target';

export interface MigrationHandlerOptions {
  node: string;
  dataDir: string;
  clients: KubeClients;
  recorder: EventRecorder;
  /** the VMI loop's cache and connections */
  vmis: Informer<VirtualMachineInstance & KubernetesObject>;
  connections: LauncherConnections;
}

const BY_UID = 'uid';

type Role = 'source' | 'target';

/** PURE: this node's part in the VMI's current migration, if any. */
export function migrationRole(vmi: VirtualMachineInstance | undefined, node: string): { role: Role; state: VMIMigrationState } | undefined {
  const state = vmi?.status?.migrationState;
  if (!state?.migrationUid || !vmi?.status) return undefined;
  if (state.targetNode === node && state.sourceNode !== node) {
    const pending = !state.completed || vmi.status.nodeName !== node;
    return pending && !state.failed ? { role: 'target', state } : undefined;
  }
  if (state.sourceNode === node && vmi.status.nodeName === node) return { role: 'source', state };
  return undefined;
}

export class MigrationHandler {
  readonly vmims: Informer<VirtualMachineInstanceMigration & KubernetesObject>;
  private readonly controller: Controller;
  private readonly source: MigrationSource;
  private readonly deps: MigrationDeps;

  constructor(private readonly opts: MigrationHandlerOptions) {
    this.deps = { node: opts.node, dataDir: opts.dataDir, clients: opts.clients, recorder: opts.recorder, connections: opts.connections, inputs: apiInputReader(opts.clients.core) };
    this.vmims = new Informer<VirtualMachineInstanceMigration & KubernetesObject>({ kc: opts.clients.kc, path: collectionPath(VirtualMachineInstanceMigrationResource), indexers: { [BY_UID]: (m) => [m.metadata?.uid] } });
    this.controller = new Controller({ name: 'virt-handler-migration', execute: (k) => this.execute(k), informers: [opts.vmis, this.vmims], workers: 2 });
    this.source = new MigrationSource(this.deps, {
      enqueue: (key) => this.controller.enqueue(key),
      findMigration: (uid) => {
        const m = this.vmims.byIndex(BY_UID, uid)[0] as VirtualMachineInstanceMigration | undefined;
        return m ? { namespace: m.metadata.namespace ?? 'default', name: m.metadata.name ?? '' } : undefined;
      },
    });
    const maybe = (vmi: VirtualMachineInstance) => { if (vmi.status?.migrationState?.migrationUid) this.controller.enqueue(vmi as never); };
    opts.vmis.on({ add: maybe, update: (_o, v) => maybe(v) });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.vmims.run(signal), this.controller.run(signal)]);
    this.source.closeAll();
  }

  async execute(key: string): Promise<void> {
    const vmi = this.opts.vmis.get(key) as VirtualMachineInstance | undefined;
    const part = migrationRole(vmi, this.opts.node);
    if (!vmi || !part) return;
    if (part.role === 'source') return this.source.sync(key, vmi, part.state);
    const again = await syncMigrationTarget(this.deps, key, vmi, part.state);
    if (again !== undefined) this.controller.enqueueAfter(key, again);
  }
}
