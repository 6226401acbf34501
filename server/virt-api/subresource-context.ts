/** What every subresource handler needs: API clients, the authorizer, the way to the node handlers. */
import type { InstancetypeLookup } from '../kube/instancetype-lookup';
import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { KUBEVIRT_GROUP, KUBEVIRT_VERSION } from '../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../lib/kubevirt';
import { isNotFound, messageOf } from '../kube/api-errors';
import { VMI_RESOURCE, VM_RESOURCE, internal, notFound } from './api-error';
import type { HandlerLookup } from './handler-client';
import type { Authorizer } from './request-auth';
import type { VncSessions } from './vnc-sessions';

export interface SubresourceContext {
  custom: CustomObjectsApi;
  core: CoreV1Api;
  authorizer: Authorizer;
  handlers: HandlerLookup;
  vnc: VncSessions;
  /** Origins allowed to open console sockets besides virt-api's and the API server's own hosts. */
  allowedOrigins: string[];
  /** instance types and preferences, for expand-spec */
  instancetypes?: Pick<InstancetypeLookup, 'instancetype' | 'preference'>;
}

const get = (ctx: SubresourceContext, plural: string, namespace: string, name: string) =>
  ctx.custom.getNamespacedCustomObject({ group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural, namespace, name });

/** The VM (404 with KubeVirt's message when missing; 500 `unable to retrieve vm [name]` otherwise). */
export async function getVM(ctx: SubresourceContext, namespace: string, name: string): Promise<VirtualMachine> {
  try {
    return await get(ctx, 'virtualmachines', namespace, name) as VirtualMachine;
  } catch (err) {
    if (isNotFound(err)) throw notFound(VM_RESOURCE, name);
    throw internal(`unable to retrieve vm [${name}]: ${messageOf(err)}`);
  }
}

/** The VMI, or undefined when it does not exist. */
export async function findVMI(ctx: SubresourceContext, namespace: string, name: string): Promise<VirtualMachineInstance | undefined> {
  try {
    return await get(ctx, 'virtualmachineinstances', namespace, name) as VirtualMachineInstance;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw internal(`unable to retrieve vmi [${name}]: ${messageOf(err)}`);
  }
}

export async function getVMI(ctx: SubresourceContext, namespace: string, name: string): Promise<VirtualMachineInstance> {
  const vmi = await findVMI(ctx, namespace, name);
  if (!vmi) throw notFound(VMI_RESOURCE, name);
  return vmi;
}

export async function findVM(ctx: SubresourceContext, namespace: string, name: string): Promise<VirtualMachine | undefined> {
  try {
    return await get(ctx, 'virtualmachines', namespace, name) as VirtualMachine;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
