/** VirtualMachine manifests and state reads for the lifecycle e2e tests (real demo guests). */
import { callRest, VMIS, VMS, type Endpoint } from './rest';

export const NS = 'default';
/** Long enough that a force stop (gracePeriod 0) is "shorter"; the demo guest powers off on ACPI in about a second. */
export const GRACE_SECONDS = 30;

export interface VMOptions {
  runStrategy: string;
  /** a `#!` script the demo guest's cloud-init runs at boot */
  userScript?: string;
  labels?: Record<string, string>;
}

export function demoVM(name: string, o: VMOptions) {
  const volumes: object[] = [{ name: 'root', containerDisk: { image: 'demo' } }];
  const disks: object[] = [{ name: 'root', disk: { bus: 'virtio' } }];
  if (o.userScript) {
    volumes.push({ name: 'cloudinit', cloudInitNoCloud: { userData: o.userScript } });
    disks.push({ name: 'cloudinit', disk: { bus: 'virtio' } });
  }
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: NS, labels: o.labels ?? {} },
    spec: {
      runStrategy: o.runStrategy,
      template: {
        metadata: { labels: { 'kubevirt.io/vm': name } },
        spec: { terminationGracePeriodSeconds: GRACE_SECONDS, domain: { memory: { guest: '128Mi' }, devices: { disks } }, volumes },
      },
    },
  };
}

export async function createVM(admin: Endpoint, manifest: ReturnType<typeof demoVM>): Promise<any> {
  const res = await callRest(admin, 'POST', VMS(NS), manifest);
  if (res.status !== 201) throw new Error(`create VM ${manifest.metadata.name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function readVM(admin: Endpoint, name: string): Promise<any> {
  const res = await callRest(admin, 'GET', `${VMS(NS)}/${name}`);
  return res.status === 200 ? res.body : undefined;
}

export async function readVMI(admin: Endpoint, name: string): Promise<any> {
  const res = await callRest(admin, 'GET', `${VMIS(NS)}/${name}`);
  return res.status === 200 ? res.body : undefined;
}

/** What a user sees of a VM: its printableStatus, and its VMI's uid and phase (if any). */
export interface VMState {
  printable?: string;
  runStrategy?: string;
  vmiUID?: string;
  vmiPhase?: string;
  paused: boolean;
  /** status.stateChangeRequests not yet consumed by the controller */
  pendingRequests: number;
}

export async function readState(admin: Endpoint, name: string): Promise<VMState> {
  const [vm, vmi] = await Promise.all([readVM(admin, name), readVMI(admin, name)]);
  const paused = (vmi?.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Paused' && c.status === 'True');
  return { printable: vm?.status?.printableStatus, runStrategy: vm?.spec?.runStrategy, vmiUID: vmi?.metadata?.uid, vmiPhase: vmi?.status?.phase, paused, pendingRequests: vm?.status?.stateChangeRequests?.length ?? 0 };
}
