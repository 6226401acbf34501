/**
 * PURE: a downwardAPI volume's files as the kubelet writes them, from the VMI's metadata (KubeVirt's
 * launcher Pod carries the VMI's labels and annotations): `metadata.labels` / `metadata.annotations`
 * as `key="value"` lines sorted by key, one label or annotation by `metadata.labels['k']`, and
 * `metadata.name`, `metadata.namespace`, `metadata.uid`.
 */
import type { VirtualMachineInstance } from '../../lib/kubevirt';

export interface DownwardField { path: string; fieldRef?: { fieldPath: string } }

const quote = (v: string) => JSON.stringify(v);

function mapFile(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {}).sort().map((k) => `${k}=${quote(m![k])}`).join('\n');
}

export function fieldValue(vmi: VirtualMachineInstance, fieldPath: string): string | undefined {
  const md = vmi.metadata;
  const one = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (one) return (one[1] === 'labels' ? md.labels : md.annotations)?.[one[2]] ?? '';
  switch (fieldPath) {
    case 'metadata.labels': return mapFile(md.labels);
    case 'metadata.annotations': return mapFile(md.annotations);
    case 'metadata.name': return md.name;
    case 'metadata.namespace': return md.namespace ?? 'default';
    case 'metadata.uid': return md.uid ?? '';
    default: return undefined;
  }
}

/** path → content; a field this cannot answer is left out (admission refuses those first) */
export function downwardApiFiles(vmi: VirtualMachineInstance, fields: DownwardField[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = f.fieldRef ? fieldValue(vmi, f.fieldRef.fieldPath) : undefined;
    if (v !== undefined && f.path) out[f.path] = v;
  }
  return out;
}
