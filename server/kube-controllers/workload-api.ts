/**
 * The writes the workload controllers make, as plain JSON requests (Pods and apps/v1 objects keep
 * the exact shape the informers cached; the generated clients would rename and re-type fields).
 */
import type { KubeConfig, V1Pod } from '@kubernetes/client-node';
import { resourcePath } from '../../lib/kubevirt/resources';
import { sendJson } from '../kube/raw-request';
import { PodResource, type ResourceDescriptor } from '../kube/resources';

const MERGE = 'application/merge-patch+json';

export class WorkloadApi {
  constructor(readonly kc: KubeConfig) {}

  private path(res: ResourceDescriptor, namespace: string, name?: string, subresource?: string): string {
    const base = resourcePath(res, { namespace, name });
    return subresource ? `${base}/${subresource}` : base;
  }

  create<T>(res: ResourceDescriptor, namespace: string, body: object): Promise<T> {
    return sendJson<T>(this.kc, 'POST', this.path(res, namespace), body);
  }

  mergePatch<T>(res: ResourceDescriptor, namespace: string, name: string, patch: object, subresource?: string): Promise<T> {
    return sendJson<T>(this.kc, 'PATCH', this.path(res, namespace, name, subresource), patch, MERGE);
  }

  /** DELETE with a UID precondition (a re-created namespace/name is left alone) */
  delete(res: ResourceDescriptor, namespace: string, name: string, uid?: string): Promise<unknown> {
    return sendJson(this.kc, 'DELETE', this.path(res, namespace, name), { kind: 'DeleteOptions', apiVersion: 'v1', ...(uid ? { preconditions: { uid } } : {}) });
  }

  createPod(namespace: string, pod: V1Pod): Promise<V1Pod> {
    return this.create<V1Pod>(PodResource, namespace, pod);
  }
}
