/**
 * `virtctl expose vm|vmi NAME --name SVC [--port P] [--target-port T] [--type ClusterIP] ...`:
 * creates a Service selecting the VM's launcher Pod.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { VirtualMachineInstanceResource, VirtualMachineResource, resourcePath, type ResourceDescriptor } from '../../../lib/kubevirt/resources';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { messageOf } from '../../kube/api-errors';
import { apiRequest } from '../api-request';
import { loadClientConfig } from '../client-config';
import { exactArgs, intFlag, parseFlags } from '../flags';
import { UsageError, VirtctlError } from '../virtctl-error';
import { renderService, type ExposeOwner } from '../../../lib/kubevirt/expose-service';
import type { Output } from '../output';

const VM_TYPES = new Set(['vm', 'vms', 'virtualmachine', 'virtualmachines']);
const VMI_TYPES = new Set(['vmi', 'vmis', 'virtualmachineinstance', 'virtualmachineinstances']);

export async function exposeCommand(argv: string[], out: Output): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, {
    name: { type: 'string' }, port: { type: 'string' }, 'target-port': { type: 'string' }, protocol: { type: 'string' },
    type: { type: 'string' }, 'port-name': { type: 'string' }, 'cluster-ip': { type: 'string' }, 'external-ip': { type: 'string' },
  });
  const [rawType, name] = exactArgs(positionals, 2);
  const type = rawType.toLowerCase();
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const serviceName = str('name');
  if (!serviceName) throw new UsageError('required flag(s) "name" not set');
  const { kc, namespace } = loadClientConfig(global);
  let owner: ExposeOwner;
  if (VM_TYPES.has(type)) {
    const vm = await getObject<VirtualMachine>(kc, VirtualMachineResource, namespace, name);
    owner = { kind: 'VirtualMachine', name, uid: vm.metadata?.uid ?? '', spec: vm.spec?.template?.spec };
  } else if (VMI_TYPES.has(type)) {
    const vmi = await getObject<VirtualMachineInstance>(kc, VirtualMachineInstanceResource, namespace, name);
    owner = { kind: 'VirtualMachineInstance', name, uid: vmi.metadata?.uid ?? '', spec: vmi.spec };
  } else {
    throw new VirtctlError(`unsupported resource type: ${type}`);
  }
  const body = renderService(owner, namespace, {
    name: serviceName, port: intFlag(values, 'port'), targetPort: str('target-port'), protocol: str('protocol') ?? 'TCP',
    type: str('type') ?? 'ClusterIP', portName: str('port-name'), clusterIP: str('cluster-ip'), externalIP: str('external-ip'),
  });
  await kc.makeApiClient(CoreV1Api).createNamespacedService({ namespace, body }).catch((err: unknown) => { throw new VirtctlError(`service creation failed: ${messageOf(err)}`); });
  out.stdout(`Service ${serviceName} successfully created for ${type} ${name}\n`);
}

async function getObject<T>(kc: KubeConfig, r: ResourceDescriptor, namespace: string, name: string): Promise<T> {
  try {
    return JSON.parse((await apiRequest(kc, 'GET', resourcePath(r, { namespace, name }))).body.toString('utf8')) as T;
  } catch (err) {
    throw new VirtctlError(`error fetching ${r.kind}: ${messageOf(err)}`);
  }
}
