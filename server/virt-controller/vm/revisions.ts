/**
 * ControllerRevisions of started VMs: created before each VMI, read back (and cached: they never
 * change) to tell whether the template changed under a running VMI.
 */
import type { AppsV1Api, V1ControllerRevision } from '@kubernetes/client-node';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { isConflict, isNotFound } from '../../kube/api-errors';
import { Annotation, revisionNameFor } from './constants';
import { renderControllerRevision } from './render-vmi';
import type { RevisionData } from './restart-required';

const MAX_CACHED = 2000;

export class RevisionStore {
  private readonly cache = new Map<string, RevisionData | null>();

  constructor(private readonly apps: AppsV1Api) {}

  /** Creates the revision for the VM's current generation; an existing one (a retried start) is fine. */
  async createFor(vm: VirtualMachine): Promise<string> {
    const body = renderControllerRevision(vm);
    try {
      await this.apps.createNamespacedControllerRevision({ namespace: body.metadata.namespace, body: body as unknown as V1ControllerRevision });
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
    return body.metadata.name;
  }

  /** The VM spec a VMI was started from, or undefined when its revision cannot be found. */
  async specAtStart(vm: VirtualMachine, vmi: VirtualMachineInstance): Promise<RevisionData | undefined> {
    const name = vmi.status?.virtualMachineRevisionName
      ?? revisionNameFor(vm.metadata.uid ?? '', Number(vmi.metadata.annotations?.[Annotation.VMGeneration] ?? 0));
    const namespace = vm.metadata.namespace ?? 'default';
    const key = `${namespace}/${name}`;
    if (this.cache.has(key)) return this.cache.get(key) ?? undefined;
    try {
      const rev = await this.apps.readNamespacedControllerRevision({ namespace, name });
      const data = (rev.data ?? {}) as RevisionData;
      this.remember(key, data);
      return data;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private remember(key: string, data: RevisionData): void {
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, data);
  }
}
