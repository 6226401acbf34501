/**
 * PURE: KubeVirt's VirtualMachineClone (clone.kubevirt.io/v1beta1) as snapshot + restore to a new VM.
 * Which object comes next, the filters on labels and annotations, and the JSON patches the restore
 * applies (new MACs, SMBIOS serial, filtered metadata, the user's own patches).
 */
export interface VMClone {
  metadata: { name?: string; namespace?: string; uid?: string; creationTimestamp?: string };
  spec: {
    source?: { apiGroup?: string; kind?: string; name?: string };
    target?: { apiGroup?: string; kind?: string; name?: string };
    labelFilters?: string[];
    annotationFilters?: string[];
    template?: { labelFilters?: string[]; annotationFilters?: string[] };
    newMacAddresses?: Record<string, string>;
    newSMBiosSerial?: string;
    patches?: string[];
  };
  status?: { phase?: string; snapshotName?: string; restoreName?: string; targetName?: string; creationTime?: string; conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

export const Phase = {
  SnapshotInProgress: 'SnapshotInProgress',
  CreatingTargetVM: 'CreatingTargetVM',
  RestoreInProgress: 'RestoreInProgress',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
} as const;

export const tmpSnapshotName = (c: VMClone) => `tmp-snapshot-${c.metadata.uid}`;
export const tmpRestoreName = (c: VMClone) => `tmp-restore-${c.metadata.uid}`;
export const targetNameOf = (c: VMClone) => c.spec.target?.name || `clone-${(c.metadata.uid ?? '').slice(0, 8)}`;

/** what the clone refuses before it starts (KubeVirt's webhook says these; the status does here) */
export function cloneProblem(c: VMClone): string | undefined {
  const s = c.spec.source;
  if (!s?.name) return 'spec.source.name is required';
  if (s.kind !== 'VirtualMachine' && s.kind !== 'VirtualMachineSnapshot') return `source kind "${s.kind ?? ''}" is not supported: VirtualMachine or VirtualMachineSnapshot`;
  const t = c.spec.target;
  if (t?.kind && t.kind !== 'VirtualMachine') return `target kind "${t.kind}" is not supported: VirtualMachine`;
  if (s.kind === 'VirtualMachine' && t?.name === s.name) return 'target name must differ from the source VM';
  return undefined;
}

/** KubeVirt's filter rule: `*` is a wildcard, `!` negates, the last filter that matches a key decides; no filters keep all */
export function keepKey(key: string, filters: string[] | undefined): boolean {
  if (!filters || filters.length === 0) return true;
  let keep = false;
  for (const f of filters) {
    const negate = f.startsWith('!');
    const pattern = negate ? f.slice(1) : f;
    const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    if (re.test(key)) keep = !negate;
  }
  return keep;
}

function filtered(map: Record<string, string> | undefined, filters: string[] | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).filter(([k]) => keepKey(k, filters)));
}

const op = (path: string, value: unknown) => JSON.stringify({ op: 'add', path, value });

interface VMShape {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: { domain?: { firmware?: object; devices?: { interfaces?: { name: string }[] } } } } };
}

/** the restore's patches that make the new VM a clone: metadata through the filters, new MACs and serial, then the user's */
export function clonePatches(c: VMClone, source: VMShape): string[] {
  const out: string[] = [];
  out.push(op('/metadata/labels', filtered(source.metadata?.labels, c.spec.labelFilters)));
  out.push(op('/metadata/annotations', filtered(source.metadata?.annotations, c.spec.annotationFilters)));
  const tmeta = source.spec?.template?.metadata;
  if (tmeta) {
    out.push(op('/spec/template/metadata/labels', filtered(tmeta.labels, c.spec.template?.labelFilters)));
    out.push(op('/spec/template/metadata/annotations', filtered(tmeta.annotations, c.spec.template?.annotationFilters)));
  }
  const ifaces = source.spec?.template?.spec?.domain?.devices?.interfaces ?? [];
  for (const [name, mac] of Object.entries(c.spec.newMacAddresses ?? {})) {
    const i = ifaces.findIndex((x) => x.name === name);
    if (i >= 0) out.push(op(`/spec/template/spec/domain/devices/interfaces/${i}/macAddress`, mac));
  }
  if (c.spec.newSMBiosSerial) {
    const hasFirmware = source.spec?.template?.spec?.domain?.firmware !== undefined;
    out.push(hasFirmware ? op('/spec/template/spec/domain/firmware/serial', c.spec.newSMBiosSerial) : op('/spec/template/spec/domain/firmware', { serial: c.spec.newSMBiosSerial }));
  }
  return [...out, ...(c.spec.patches ?? [])];
}
