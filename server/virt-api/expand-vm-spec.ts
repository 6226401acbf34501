/**
 * `PUT /apis/subresources.kubevirt.io/{v}/namespaces/{ns}/expand-vm-spec` with a VirtualMachine as
 * the body (not stored, may not exist): the VM as it would start, its instance type and preference
 * applied (KubeVirt's ExpandSpecRequestHandler). Every refusal is a 400 with KubeVirt's message,
 * also a conflict or a missing instance type (the VM endpoint answers those with 422 / 404).
 */
import type { IncomingMessage } from 'node:http';
import type { VirtualMachine } from '../../lib/kubevirt';
import { ApiError, badRequest } from './api-error';
import { expandVM } from './expand-spec';
import { readOptionalBody } from './request-body';
import type { SubresourceContext } from './subresource-context';

export const EXPAND_VM_SPEC = 'expand-vm-spec';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** PURE: the body as a VM in `namespace`, or KubeVirt's 400. */
export function draftVM(body: unknown, namespace: string): VirtualMachine {
  if (body === undefined) throw badRequest('empty request body');
  const spec = isObject(body) ? body.spec : undefined;
  const template = isObject(spec) ? spec.template : undefined;
  const valid = isObject(body) && (body.kind === undefined || body.kind === 'VirtualMachine')
    && (body.metadata === undefined || isObject(body.metadata)) && isObject(template) && isObject(template.spec);
  if (!valid) throw badRequest('Object is not a valid VirtualMachine');
  if (!namespace) throw badRequest('The request namespace must not be empty');
  const vm = body as unknown as VirtualMachine;
  const own = vm.metadata?.namespace;
  if (own && own !== namespace) throw badRequest(`VM namespace must be empty or ${namespace}`);
  return { ...vm, apiVersion: vm.apiVersion ?? 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { ...vm.metadata, namespace } };
}

export async function serveExpandVMSpec(ctx: SubresourceContext, namespace: string, req: IncomingMessage): Promise<VirtualMachine> {
  const vm = draftVM(await readOptionalBody(req), namespace);
  if (!ctx.instancetypes) return vm;
  try {
    return await expandVM(vm, ctx.instancetypes);
  } catch (err) {
    if (err instanceof ApiError && err.code < 500) throw badRequest(err.message);
    throw err;
  }
}
