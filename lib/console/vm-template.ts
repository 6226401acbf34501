/** The create-VM form's model and the VirtualMachine it posts (shown to the user as YAML first). */
import { KUBEVIRT_API_VERSION, RunStrategy, type VirtualMachine } from '../kubevirt';
import { instancetypeMatcher, preferenceMatcher } from './instancetype-choice';

export interface CreateVMForm {
  name: string;
  namespace: string;
  image: string;
  cores: number;
  memory: string;
  userData: string;
  sshKey: string;
  runStrategy: RunStrategy;
  startNow: boolean;
  /** an extra persistent disk: none, blank, or imported from a URL (a DataVolume of the VM) */
  dataDisk: 'none' | 'blank' | 'url';
  dataDiskUrl: string;
  dataDiskSize: string;
  /** '' → the cluster's default StorageClass */
  dataDiskClass: string;
  /** CPU and memory from the cores/memory fields, or from a cluster instance type (the catalogue) */
  sizing: 'custom' | 'instancetype';
  /** a VirtualMachineClusterInstancetype name (u1.small), or `VirtualMachineInstancetype/name` for the namespace's own (instancetype-choice.ts) */
  instancetype: string;
  /** a VirtualMachineClusterPreference name, `VirtualMachinePreference/name`, '' for none */
  preference: string;
}

export const DEFAULT_CREATE_FORM: CreateVMForm = {
  name: '', namespace: 'default', image: 'demo', cores: 1, memory: '256Mi',
  userData: '#!/bin/sh\necho "hello from cloud-init"\n', sshKey: '', runStrategy: RunStrategy.Always, startNow: true,
  dataDisk: 'none', dataDiskUrl: '', dataDiskSize: '1Gi', dataDiskClass: '',
  sizing: 'custom', instancetype: '', preference: '',
};

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const MEMORY = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$/;

/** Field → message for what the form can check before the server does. */
export function validateCreateForm(f: CreateVMForm): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.name) e.name = 'Give it a name.';
  else if (f.name.length > 63 || !DNS_LABEL.test(f.name)) e.name = 'Lower-case letters, digits and "-", starting and ending with a letter or digit, at most 63.';
  if (!DNS_LABEL.test(f.namespace)) e.namespace = 'Not a valid namespace name.';
  if (!f.image) e.image = 'Pick an image.';
  if (f.sizing === 'instancetype') {
    if (!f.instancetype) e.instancetype = 'Pick a size from the catalogue.';
  } else {
    if (!Number.isInteger(f.cores) || f.cores < 1 || f.cores > 64) e.cores = 'Between 1 and 64.';
    if (!MEMORY.test(f.memory)) e.memory = 'A quantity like 256Mi or 2Gi.';
  }
  if (f.dataDisk !== 'none' && !MEMORY.test(f.dataDiskSize)) e.dataDiskSize = 'A size like 1Gi or 512Mi.';
  if (f.dataDisk === 'url' && !/^https?:\/\/\S+$/.test(f.dataDiskUrl.trim())) e.dataDiskUrl = 'An http:// or https:// URL of a disk image (qcow2, raw, iso, .gz, .xz).';
  if (f.sshKey && !/^(ssh-|ecdsa-|sk-)/.test(f.sshKey.trim())) e.sshKey = 'An OpenSSH public key (ssh-ed25519 AAAA…).';
  return e;
}

/** User data with the SSH key folded in (cloud-config key list, or a line in a shell script). */
export function composeUserData(userData: string, sshKey: string): string {
  const key = sshKey.trim();
  if (!key) return userData;
  if (userData.startsWith('#cloud-config')) return `${userData.trimEnd()}\nssh_authorized_keys:\n  - ${key}\n`;
  if (userData.startsWith('#!')) return `${userData.trimEnd()}\nmkdir -p /root/.ssh && echo '${key.replace(/'/g, '')}' >> /root/.ssh/authorized_keys\n`;
  return `#cloud-config\nssh_authorized_keys:\n  - ${key}\n`;
}

/** runStrategy written at create: without "start now", a strategy that would start it becomes Halted. */
export function initialRunStrategy(f: Pick<CreateVMForm, 'runStrategy' | 'startNow'>): RunStrategy {
  if (f.startNow) return f.runStrategy === RunStrategy.Halted ? RunStrategy.Always : f.runStrategy;
  return f.runStrategy === RunStrategy.Manual ? RunStrategy.Manual : RunStrategy.Halted;
}

/** After creating, a Manual VM that should start now needs a start request. */
export function needsStartAfterCreate(f: Pick<CreateVMForm, 'runStrategy' | 'startNow'>): boolean {
  return f.startNow && f.runStrategy === RunStrategy.Manual;
}

export function buildVirtualMachine(f: CreateVMForm): VirtualMachine {
  const userData = composeUserData(f.userData, f.sshKey);
  const disks = [{ name: 'root', disk: { bus: 'virtio' as const } }];
  const volumes: NonNullable<VirtualMachine['spec']['template']['spec']['volumes']> = [{ name: 'root', containerDisk: { image: f.image } }];
  if (userData.trim()) {
    disks.push({ name: 'cloudinit', disk: { bus: 'virtio' } });
    volumes.push({ name: 'cloudinit', cloudInitNoCloud: { userData } });
  }
  const dataVolumeTemplates = [];
  if (f.dataDisk !== 'none') {
    const dv = `${f.name}-data`;
    disks.push({ name: 'data', disk: { bus: 'virtio' }, serial: 'data' } as (typeof disks)[number]);
    volumes.push({ name: 'data', dataVolume: { name: dv } });
    const storage = { resources: { requests: { storage: f.dataDiskSize } }, ...(f.dataDiskClass ? { storageClassName: f.dataDiskClass } : {}) };
    dataVolumeTemplates.push({ metadata: { name: dv }, spec: { source: f.dataDisk === 'url' ? { http: { url: f.dataDiskUrl.trim() } } : { blank: {} }, storage } });
  }
  // with an instance type the VM names it (and the preference) and leaves CPU and memory to it
  const byType = f.sizing === 'instancetype';
  const sizing = byType
    ? {
      instancetype: instancetypeMatcher(f.instancetype),
      ...(f.preference ? { preference: preferenceMatcher(f.preference) } : {}),
    }
    : {};
  return {
    apiVersion: KUBEVIRT_API_VERSION,
    kind: 'VirtualMachine',
    metadata: { name: f.name, namespace: f.namespace },
    spec: {
      runStrategy: initialRunStrategy(f),
      ...sizing,
      ...(dataVolumeTemplates.length ? { dataVolumeTemplates } : {}),
      template: {
        metadata: { labels: { 'kubevirt.io/vm': f.name } },
        spec: {
          domain: byType ? { devices: { disks } } : { cpu: { cores: f.cores }, memory: { guest: f.memory }, devices: { disks } },
          volumes,
        },
      },
    },
  };
}
