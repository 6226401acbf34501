/**
 * `virtctl start|stop|restart|migrate VM` and `pause|unpause vm|vmi NAME`, `soft-reboot VMI`: one
 * PUT on the subresource each, KubeVirt's flags, messages and exit codes ("VM x was scheduled to
 * start"; "Error starting VirtualMachine <the server's message>").
 */
import { VirtualMachineInstanceResource, VirtualMachineResource, subresourcePath } from '../../../lib/kubevirt/resources';
import { apiRequest } from '../api-request';
import { loadClientConfig, type GlobalFlags } from '../client-config';
import { exactArgs, intFlag, mapFlag, parseFlags } from '../flags';
import { UsageError, VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

const DRY_RUN = { 'dry-run': { type: 'boolean' as const } };
const FORCE = { force: { type: 'boolean' as const }, 'grace-period': { type: 'string' as const } };

const dryRun = (on: boolean | string | undefined) => (on === true ? { dryRun: ['All'] } : {});

async function put(global: GlobalFlags, path: (ns: string) => string, body: object, failure: string): Promise<void> {
  const { kc, namespace } = loadClientConfig(global);
  try {
    await apiRequest(kc, 'PUT', path(namespace), body);
  } catch (err) {
    throw new VirtctlError(`${failure}${err instanceof Error ? err.message : String(err)}`);
  }
}

/** --force and --grace-period only together (KubeVirt: "Must both use --force=true and set --grace-period."). */
function forcedGrace(values: Record<string, string | boolean | undefined>): number | undefined {
  const grace = intFlag(values, 'grace-period');
  if ((grace !== undefined) !== (values.force === true)) throw new VirtctlError('Must both use --force=true and set --grace-period.');
  return grace;
}

export async function vmCommand(verb: 'start' | 'stop' | 'restart' | 'migrate', argv: string[], out: Output): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, { ...DRY_RUN, ...(verb === 'stop' || verb === 'restart' ? FORCE : {}), ...(verb === 'start' ? { paused: { type: 'boolean' } } : {}), ...(verb === 'migrate' ? { addedNodeSelector: { type: 'string' } } : {}) });
  const [name] = exactArgs(positionals, 1);
  let body: object = dryRun(values['dry-run']);
  let failure = { start: 'Error starting VirtualMachine ', stop: 'error stopping VirtualMachine ', restart: 'error restarting VirtualMachine: ', migrate: 'Error migrating VirtualMachine ' }[verb];
  if (verb === 'start' && values.paused === true) body = { ...body, paused: true };
  if (verb === 'stop' || verb === 'restart') {
    const grace = forcedGrace(values);
    if (grace !== undefined) {
      body = { ...body, ...(verb === 'stop' ? { gracePeriod: grace } : { gracePeriodSeconds: grace }) };
      failure = verb === 'stop' ? 'error force stopping VirtualMachine: ' : 'error force restarting VirtualMachine: ';
    }
  }
  if (verb === 'migrate') {
    const selector = mapFlag(values, 'addedNodeSelector');
    if (selector) body = { ...body, addedNodeSelector: selector };
  }
  await put(global, (ns) => subresourcePath(VirtualMachineResource, ns, name, verb), body, failure);
  out.stdout(`VM ${name} was scheduled to ${verb}\n`);
}

const RESOURCE_TYPES: Record<string, 'vm' | 'vmi'> = { vm: 'vm', vms: 'vm', virtualmachine: 'vm', virtualmachines: 'vm', vmi: 'vmi', vmis: 'vmi', virtualmachineinstance: 'vmi', virtualmachineinstances: 'vmi' };

export async function pauseCommand(verb: 'pause' | 'unpause', argv: string[], out: Output): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, DRY_RUN);
  const [type, name] = exactArgs(positionals, 2);
  if (!RESOURCE_TYPES[type.toLowerCase()]) throw new UsageError(`Unsupported resource type '${type}'`);
  if (values['dry-run'] === true) out.stdout('Dry Run execution\n');
  const failure = verb === 'pause' ? `Error pausing VirtualMachineInstance ${name}: ` : `Error unpausing VirtualMachineInstance ${name}: `;
  // a VM's VMI has the VM's name; KubeVirt reads the VM first so a missing VM is its own error
  await put(global, (ns) => subresourcePath(VirtualMachineInstanceResource, ns, name, verb), dryRun(values['dry-run']), failure);
  out.stdout(`VMI ${name} was scheduled to ${verb}\n`);
}

export async function softRebootCommand(argv: string[], out: Output): Promise<void> {
  const { global, positionals } = parseFlags(argv, {});
  const [name] = exactArgs(positionals, 1);
  await put(global, (ns) => subresourcePath(VirtualMachineInstanceResource, ns, name, 'softreboot'), {}, `Error soft rebooting VirtualMachineInstance ${name}: `);
  out.stdout(`VMI ${name} was scheduled to soft-reboot\n`);
}
