import {
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type KubernetesListObject,
  type KubernetesObject,
  type V1DeleteOptions,
} from '@kubernetes/client-node';
import {
  VirtualMachineInstanceMigrationResource,
  VirtualMachineInstanceResource,
  VirtualMachineResource,
  type ResourceDescriptor,
} from './resources';

/**
 * client-node 1.x always sends application/json-patch+json for PATCH; the Content-Type is chosen
 * by a per-call middleware. Pass one of these as the second argument of any generated patch call:
 * `core.patchNamespacedPodStatus({ name, namespace, body }, mergePatch)`.
 */
export const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
export const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
export const strategicMergePatch = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  path: string;
  value?: unknown;
  from?: string;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  /** Precondition: only delete the object with this UID (a re-created namespace/name is left alone). */
  uid?: string;
  resourceVersion?: string;
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
}

/** Body for a DELETE with preconditions; use it for core objects too (`deleteNamespacedPod({..., body})`). */
export function toDeleteBody(opts: DeleteOptions = {}): V1DeleteOptions {
  const preconditions = opts.uid || opts.resourceVersion ? { uid: opts.uid, resourceVersion: opts.resourceVersion } : undefined;
  return { gracePeriodSeconds: opts.gracePeriodSeconds, propagationPolicy: opts.propagationPolicy, preconditions };
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
}

/** Typed calls for one namespaced custom resource (VirtualMachine, VirtualMachineInstance, ...). */
export class CustomResourceClient<T extends KubernetesObject> {
  constructor(
    readonly api: CustomObjectsApi,
    readonly resource: ResourceDescriptor,
  ) {}

  private target(namespace: string) {
    const { group, version, plural } = this.resource;
    return { group, version, plural, namespace };
  }

  get(namespace: string, name: string): Promise<T> {
    return this.api.getNamespacedCustomObject({ ...this.target(namespace), name });
  }

  /** All namespaces when `namespace` is undefined. */
  list(namespace?: string, opts: ListOptions = {}): Promise<KubernetesListObject<T>> {
    const { group, version, plural } = this.resource;
    if (namespace === undefined) return this.api.listClusterCustomObject({ group, version, plural, ...opts });
    return this.api.listNamespacedCustomObject({ ...this.target(namespace), ...opts });
  }

  create(namespace: string, body: T): Promise<T> {
    return this.api.createNamespacedCustomObject({ ...this.target(namespace), body });
  }

  mergePatch(namespace: string, name: string, patch: object): Promise<T> {
    return this.api.patchNamespacedCustomObject({ ...this.target(namespace), name, body: patch }, mergePatch);
  }

  jsonPatch(namespace: string, name: string, ops: JsonPatchOperation[]): Promise<T> {
    return this.api.patchNamespacedCustomObject({ ...this.target(namespace), name, body: ops }, jsonPatch);
  }

  mergePatchStatus(namespace: string, name: string, patch: object): Promise<T> {
    return this.api.patchNamespacedCustomObjectStatus({ ...this.target(namespace), name, body: patch }, mergePatch);
  }

  jsonPatchStatus(namespace: string, name: string, ops: JsonPatchOperation[]): Promise<T> {
    return this.api.patchNamespacedCustomObjectStatus({ ...this.target(namespace), name, body: ops }, jsonPatch);
  }

  /** PUT …/status: fails with 409 when `body.metadata.resourceVersion` is stale. */
  replaceStatus(namespace: string, name: string, body: T): Promise<T> {
    return this.api.replaceNamespacedCustomObjectStatus({ ...this.target(namespace), name, body });
  }

  replace(namespace: string, name: string, body: T): Promise<T> {
    return this.api.replaceNamespacedCustomObject({ ...this.target(namespace), name, body });
  }

  delete(namespace: string, name: string, opts: DeleteOptions = {}): Promise<unknown> {
    return this.api.deleteNamespacedCustomObject({ ...this.target(namespace), name, body: toDeleteBody(opts) });
  }
}

export interface KubeClients {
  kc: KubeConfig;
  core: CoreV1Api;
  coordination: CoordinationV1Api;
  custom: CustomObjectsApi;
  vms: CustomResourceClient<KubernetesObject>;
  vmis: CustomResourceClient<KubernetesObject>;
  migrations: CustomResourceClient<KubernetesObject>;
}

/** All clients a component needs, built once from one KubeConfig. Narrow the CR types with `as CustomResourceClient<VMI>`. */
export function makeKubeClients(kc: KubeConfig): KubeClients {
  const custom = kc.makeApiClient(CustomObjectsApi);
  return {
    kc,
    core: kc.makeApiClient(CoreV1Api),
    coordination: kc.makeApiClient(CoordinationV1Api),
    custom,
    vms: new CustomResourceClient(custom, VirtualMachineResource),
    vmis: new CustomResourceClient(custom, VirtualMachineInstanceResource),
    migrations: new CustomResourceClient(custom, VirtualMachineInstanceMigrationResource),
  };
}
