/**
 * kube-controller-manager's endpoints and endpointslice controllers, in one loop: for every Service
 * with a selector, the Endpoints of the same name and its EndpointSlices follow the Pods it selects
 * (pod IP, readiness, node, ports resolved from targetPort). Written only when they change; owned
 * by the Service, so the garbage collector removes them with it. Keys are `namespace/name`.
 */
import { CoreV1Api, DiscoveryV1Api, type KubeConfig, type KubernetesObject, type V1Endpoints, type V1EndpointSlice, type V1Pod, type V1Service } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isNotFound } from '../../kube/api-errors';
import { Controller } from '../../kube/controller';
import { Expectations } from '../../kube/expectations';
import { Informer } from '../../kube/informer';
import { keyOf } from '../../kube/resources';
import { MANAGED_BY, MANAGED_BY_LABEL, SERVICE_NAME_LABEL, desiredSlices, desiredSubsets, endpointsLabels, ownerReference, sliceLabels } from './desired-endpoints';
import { selects } from './selection';
import { planSlices } from './slice-plan';
import { sameContent } from './same-content';

type Svc = V1Service & KubernetesObject;
type Pod = V1Pod & KubernetesObject;
type Eps = V1Endpoints & KubernetesObject;
type Slice = V1EndpointSlice & KubernetesObject;

const BY_SERVICE = 'service';
const BY_NAMESPACE = 'namespace';
const EXPECTATION_TTL_MS = 30_000;

export interface EndpointsControllerOptions { kc: KubeConfig; log: Logger }

const managesEndpoints = (svc: V1Service) => svc.spec?.type !== 'ExternalName' && Object.keys(svc.spec?.selector ?? {}).length > 0;

export class EndpointsController {
  readonly services: Informer<Svc>;
  readonly pods: Informer<Pod>;
  readonly endpoints: Informer<Eps>;
  readonly slices: Informer<Slice>;
  private readonly controller: Controller;
  private readonly core: CoreV1Api;
  private readonly discovery: DiscoveryV1Api;
  private readonly expectations = new Expectations(EXPECTATION_TTL_MS);

  constructor(private readonly opts: EndpointsControllerOptions) {
    const { kc } = opts;
    this.core = kc.makeApiClient(CoreV1Api);
    this.discovery = kc.makeApiClient(DiscoveryV1Api);
    this.services = new Informer({ kc, path: '/api/v1/services' });
    this.pods = new Informer({ kc, path: '/api/v1/pods', indexers: { [BY_NAMESPACE]: (p: Pod) => [p.metadata?.namespace ?? ''] } });
    this.endpoints = new Informer({ kc, path: '/api/v1/endpoints' });
    this.slices = new Informer({
      kc, path: '/apis/discovery.k8s.io/v1/endpointslices', labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY}`,
      indexers: { [BY_SERVICE]: (s: Slice) => [`${s.metadata?.namespace}/${s.metadata?.labels?.[SERVICE_NAME_LABEL] ?? ''}`] },
    });
    this.controller = new Controller({ name: 'endpoints-controller', execute: (key) => this.execute(key), informers: [this.services, this.pods, this.endpoints, this.slices], workers: 2 });
    this.services.on(this.controller.enqueueHandlers());
    this.pods.on({ add: (p) => this.enqueueFor(p), update: (o, p) => this.enqueueFor(o, p), delete: (p) => this.enqueueFor(p) });
    this.endpoints.on(this.controller.enqueueHandlers());
    const sliceKey = (s: Slice) => `${s.metadata?.namespace}/${s.metadata?.labels?.[SERVICE_NAME_LABEL] ?? ''}`;
    this.slices.on({
      add: (s) => { this.expectations.creationObserved(sliceKey(s)); this.controller.enqueue(sliceKey(s)); },
      update: (_o, s) => this.controller.enqueue(sliceKey(s)),
      delete: (s) => this.controller.enqueue(sliceKey(s)),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.services.run(signal), this.pods.run(signal), this.endpoints.run(signal), this.slices.run(signal), this.controller.run(signal)]);
  }

  /** the Services in the Pod's namespace that select it, before or after the change */
  private enqueueFor(...pods: V1Pod[]): void {
    const ns = pods[0].metadata?.namespace;
    for (const svc of this.services.list((s) => s.metadata?.namespace === ns)) {
      if (pods.some((p) => selects(svc.spec?.selector, p.metadata?.labels))) this.controller.enqueue(svc);
    }
  }

  async execute(key: string): Promise<void> {
    const svc = this.services.get(key);
    if (!svc) {
      this.expectations.deleteExpectations(key);
      return;
    }
    if (!this.expectations.satisfied(key)) return;
    if (!managesEndpoints(svc)) {
      await this.removeSlices(this.slices.byIndex(BY_SERVICE, key));
      return;
    }
    const pods = this.pods.byIndex(BY_NAMESPACE, svc.metadata?.namespace ?? '');
    await this.syncEndpoints(svc, pods);
    await this.syncSlices(svc, pods);
  }

  private async syncEndpoints(svc: Svc, pods: V1Pod[]): Promise<void> {
    const namespace = svc.metadata!.namespace!;
    const name = svc.metadata!.name!;
    const current = this.endpoints.get(`${namespace}/${name}`);
    const subsets = desiredSubsets(svc, pods);
    const labels = endpointsLabels(svc);
    const metadata = { name, namespace, resourceVersion: current?.metadata?.resourceVersion, annotations: current?.metadata?.annotations, labels, ownerReferences: [ownerReference(svc)] };
    if (current && sameContent(current.subsets ?? [], subsets) && sameContent(current.metadata?.labels ?? {}, labels) && sameContent(current.metadata?.ownerReferences, metadata.ownerReferences)) return;
    const body: V1Endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata, subsets };
    if (current) await this.core.replaceNamespacedEndpoints({ namespace, name, body });
    else await this.core.createNamespacedEndpoints({ namespace, body });
    this.opts.log.debug({ service: keyOf(svc), subsets: subsets.length }, current ? 'endpoints updated' : 'endpoints created');
  }

  private async syncSlices(svc: Svc, pods: V1Pod[]): Promise<void> {
    const namespace = svc.metadata!.namespace!;
    const key = keyOf(svc);
    const labels = sliceLabels(svc);
    const plan = planSlices(this.slices.byIndex(BY_SERVICE, key), desiredSlices(svc, pods), labels);
    const owner = [ownerReference(svc)];
    for (const { existing, desired } of plan.update) {
      const { name, resourceVersion, annotations } = existing.metadata ?? {};
      const body: V1EndpointSlice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name, namespace, resourceVersion, annotations, labels, ownerReferences: owner }, addressType: 'IPv4', ports: desired.ports, endpoints: desired.endpoints };
      await this.discovery.replaceNamespacedEndpointSlice({ namespace, name: name!, body });
    }
    if (plan.create.length) this.expectations.expectCreations(key, plan.create.length);
    for (const desired of plan.create) {
      const body: V1EndpointSlice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { generateName: `${svc.metadata!.name}-`, namespace, labels, ownerReferences: owner }, addressType: 'IPv4', ports: desired.ports, endpoints: desired.endpoints };
      try {
        await this.discovery.createNamespacedEndpointSlice({ namespace, body });
      } catch (err) {
        this.expectations.lowerExpectations(key, 1);
        throw err;
      }
    }
    await this.removeSlices(plan.remove);
  }

  private async removeSlices(slices: V1EndpointSlice[]): Promise<void> {
    for (const s of slices) {
      try {
        await this.discovery.deleteNamespacedEndpointSlice({ namespace: s.metadata!.namespace!, name: s.metadata!.name! });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
}

/** runs the endpoints controller until the signal aborts */
export async function runEndpointsController(opts: { kc: KubeConfig; signal: AbortSignal; log: Logger }): Promise<void> {
  const ctl = new EndpointsController({ kc: opts.kc, log: opts.log.child({ component: 'endpoints-controller' }) });
  await ctl.run(opts.signal);
}
