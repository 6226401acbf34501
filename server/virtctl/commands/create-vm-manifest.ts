/**
 * The VirtualMachine `virtctl create vm` prints, as a pure function of its flags (KubeVirt's
 * defaults: runStrategy Always, 180 s grace, 512Mi when no instance type names the size;
 * containerdisk volumes before PVCs; a cloud-init NoCloud disk from --user/--ssh-key or
 * --cloud-init-user-data).
 */
import type { Disk, VirtualMachine, Volume } from '../../../lib/kubevirt';
import { bootOrderOf, checkVolumeName, flagError, parseParams, splitPrefixedName } from './create-vm-params';

export interface CreateVMFlags {
  name: string;
  namespace?: string;
  runStrategy: string;
  terminationGracePeriod: number;
  memory?: string;
  instancetype?: string;
  preference?: string;
  containerdisks: string[];
  pvcs: string[];
  user?: string;
  sshKeys: string[];
  cloudInitUserData?: string;
}

const INSTANCETYPE_KINDS = ['virtualmachineinstancetype', 'virtualmachineclusterinstancetype'];
const PREFERENCE_KINDS = ['virtualmachinepreference', 'virtualmachineclusterpreference'];

function matcher(flag: string, value: string, kinds: string[], what: string) {
  const { kind, name } = splitPrefixedName(flag, value);
  if (kind && !kinds.includes(kind)) throw flagError(flag, `invalid ${what} kind "${kind}", supported values are: ${kinds.join(', ')}`);
  return { name, ...(kind ? { kind } : {}) };
}

function cloudConfig(f: CreateVMFlags): string | undefined {
  if (!f.user && f.sshKeys.length === 0) return undefined;
  const lines = ['#cloud-config'];
  if (f.user) lines.push(`user: ${f.user}`);
  if (f.sshKeys.length) lines.push('ssh_authorized_keys:', ...f.sshKeys.map((k) => `  - ${k}`));
  return `${lines.join('\n')}\n`;
}

export function renderCreateVM(f: CreateVMFlags): VirtualMachine {
  const volumes: Volume[] = [];
  const disks: Disk[] = [];
  const bootOrders = new Set<number>();
  const add = (flag: string, vol: Volume, bootorder: string | undefined) => {
    checkVolumeName(flag, vol.name);
    if (volumes.some((v) => v.name === vol.name)) throw flagError(flag, `there is already a volume with name "${vol.name}"`);
    volumes.push(vol);
    const order = bootOrderOf(flag, bootorder, bootOrders);
    if (order !== undefined) disks.push({ name: vol.name, bootOrder: order });
  };
  f.containerdisks.forEach((raw, i) => {
    const p = parseParams('volume-containerdisk', raw, ['src', 'name', 'bootorder']);
    if (!p.src) throw flagError('volume-containerdisk', 'src must be specified');
    add('volume-containerdisk', { name: p.name ?? `${f.name}-containerdisk-${i}`, containerDisk: { image: p.src } }, p.bootorder);
  });
  f.pvcs.forEach((raw) => {
    const p = parseParams('volume-pvc', raw, ['src', 'name', 'bootorder']);
    if (!p.src) throw flagError('volume-pvc', 'src must be specified');
    add('volume-pvc', { name: p.name ?? p.src, persistentVolumeClaim: { claimName: p.src } }, p.bootorder);
  });
  const config = cloudConfig(f);
  if (config !== undefined || f.cloudInitUserData !== undefined) {
    volumes.push({ name: 'cloudinitdisk', cloudInitNoCloud: config !== undefined ? { userData: config } : { userDataBase64: f.cloudInitUserData } });
  }
  const vm: VirtualMachine = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine',
    metadata: { name: f.name, ...(f.namespace ? { namespace: f.namespace } : {}) },
    spec: {
      runStrategy: f.runStrategy as VirtualMachine['spec']['runStrategy'],
      template: {
        spec: {
          terminationGracePeriodSeconds: f.terminationGracePeriod,
          domain: { ...(f.instancetype ? {} : { memory: { guest: f.memory ?? '512Mi' } }), devices: disks.length ? { disks } : {} },
          ...(volumes.length ? { volumes } : {}),
        },
      },
    },
  };
  if (f.instancetype) vm.spec.instancetype = matcher('instancetype', f.instancetype, INSTANCETYPE_KINDS, 'instancetype');
  if (f.preference) vm.spec.preference = matcher('preference', f.preference, PREFERENCE_KINDS, 'preference');
  return vm;
}
