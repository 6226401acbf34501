/**
 * PURE: a VMI's downwardAPI volume files, from its metadata (KubeVirt's launcher Pod carries the
 * VMI's labels and annotations) in the kubelet's format (server/kube/downward-api.ts).
 */
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { metadataFieldValue } from '../kube/downward-api';

export interface DownwardField { path: string; fieldRef?: { fieldPath: string } }

/** path → content; a field this cannot answer is left out (admission refuses those first) */
export function downwardApiFiles(vmi: VirtualMachineInstance, fields: DownwardField[]): Record<string, string> {
  const meta = { ...vmi.metadata, namespace: vmi.metadata.namespace ?? 'default', uid: vmi.metadata.uid ?? '' };
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = f.fieldRef ? metadataFieldValue(meta, f.fieldRef.fieldPath) : undefined;
    if (v !== undefined && f.path) out[f.path] = v;
  }
  return out;
}
