/**
 * PURE: kube's downward API for an object's metadata, as the kubelet writes it into env vars and
 * downwardAPI volume files: `metadata.name`, `.namespace`, `.uid`, `metadata.labels` /
 * `metadata.annotations` as `key="value"` lines sorted by key, and one label or annotation by
 * `metadata.labels['key']` (empty when absent). Used for Pods (server/node) and for a VMI's
 * downwardAPI disks (server/virt-handler). Undefined for any other path.
 */
export interface DownwardMetadata {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const mapFile = (o: Record<string, string> | undefined) =>
  Object.entries(o ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n');

export function metadataFieldValue(meta: DownwardMetadata | undefined, path: string): string | undefined {
  const one = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (one) return meta?.[one[1] as 'labels' | 'annotations']?.[one[2]] ?? '';
  switch (path) {
    case 'metadata.name': return meta?.name;
    case 'metadata.namespace': return meta?.namespace;
    case 'metadata.uid': return meta?.uid;
    case 'metadata.labels': return mapFile(meta?.labels);
    case 'metadata.annotations': return mapFile(meta?.annotations);
    default: return undefined;
  }
}
