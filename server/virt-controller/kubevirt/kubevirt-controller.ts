/**
 * Reports the KubeVirt CR's status (the part of KubeVirt's virt-operator that still applies when
 * `kv up` or deploy/cluster installs the components): every change of the CR is looked at, and a
 * status that does not say Deployed for this generation is patched.
 */
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { ClusterConfig } from '../../kube/cluster-config';
import { mergePatch } from '../../kube/clients';
import { messageOf } from '../../kube/api-errors';
import { log } from '../../log';
import { KUBEVIRT_CR_NAMESPACE, type KubeVirt } from '../../../lib/kubevirt/kubevirt-cr';
import { desiredKubeVirtStatus, statusIsCurrent } from './kubevirt-status';

export interface KubeVirtControllerOptions {
  custom: CustomObjectsApi;
  clusterConfig: ClusterConfig;
  version: string;
}

export class KubeVirtController {
  private readonly log = log.child({ component: 'kubevirt-controller' });
  private pending = Promise.resolve();

  constructor(private readonly opts: KubeVirtControllerOptions) {}

  async run(signal: AbortSignal): Promise<void> {
    const off = this.opts.clusterConfig.onChange(() => { this.pending = this.pending.then(() => this.sync()); });
    await this.opts.clusterConfig.informer.waitForSync(signal);
    this.pending = this.pending.then(() => this.sync());
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    off();
  }

  private async sync(): Promise<void> {
    const cr: KubeVirt | undefined = this.opts.clusterConfig.kubevirt();
    const name = cr?.metadata?.name;
    if (!cr || !name || statusIsCurrent(cr, this.opts.version)) return;
    try {
      await this.opts.custom.patchNamespacedCustomObjectStatus({
        group: 'kubevirt.io', version: 'v1', plural: 'kubevirts', namespace: KUBEVIRT_CR_NAMESPACE, name,
        body: { status: desiredKubeVirtStatus(cr, this.opts.version, new Date().toISOString()) },
      }, mergePatch);
    } catch (err) {
      this.log.warn({ err: messageOf(err), name }, 'could not report the KubeVirt status');
    }
  }
}
