/**
 * PURE: reading what a registry's manifest endpoint returned. An index (OCI image index or Docker
 * manifest list) names one manifest per platform, and a node takes linux/amd64 as a kubelet on
 * such a node would; an image manifest (OCI or Docker schema2) names the layers.
 */
import { MediaType } from './media-types';
import { RegistryError } from './registry-error';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

export type ParsedManifest =
  | { kind: 'index'; manifests: Descriptor[] }
  | { kind: 'image'; config?: Descriptor; layers: Descriptor[] };

const INDEX_TYPES = new Set<string>([MediaType.OciIndex, MediaType.DockerManifestList]);
const IMAGE_TYPES = new Set<string>([MediaType.OciManifest, MediaType.DockerManifest]);
const DIGEST = /^sha256:[a-f0-9]{64}$/;

function isDescriptor(d: unknown): d is Descriptor {
  const x = d as Descriptor;
  return typeof x === 'object' && x !== null && typeof x.digest === 'string' && typeof x.size === 'number';
}

/** The manifest's kind comes from its own mediaType, else from the response's Content-Type. */
export function parseManifest(body: string, contentType: string | undefined): ParsedManifest {
  let doc: { mediaType?: string; schemaVersion?: number; manifests?: unknown[]; layers?: unknown[]; config?: unknown };
  try {
    doc = JSON.parse(body) as typeof doc;
  } catch {
    throw new RegistryError('ManifestInvalid', 'manifest invalid: not JSON');
  }
  const type = doc.mediaType ?? contentType?.split(';')[0].trim() ?? '';
  if (INDEX_TYPES.has(type) || (!IMAGE_TYPES.has(type) && Array.isArray(doc.manifests))) {
    if (!Array.isArray(doc.manifests) || !doc.manifests.every(isDescriptor)) throw new RegistryError('ManifestInvalid', 'manifest invalid: an index needs a manifests list');
    return { kind: 'index', manifests: doc.manifests };
  }
  if (IMAGE_TYPES.has(type) || Array.isArray(doc.layers)) {
    if (doc.schemaVersion !== 2 || !Array.isArray(doc.layers) || !doc.layers.every(isDescriptor)) {
      throw new RegistryError('ManifestInvalid', `manifest invalid: schema version ${doc.schemaVersion ?? '?'} with ${Array.isArray(doc.layers) ? 'unreadable' : 'no'} layers (only OCI and Docker schema2 manifests are supported)`);
    }
    return { kind: 'image', config: isDescriptor(doc.config) ? doc.config : undefined, layers: doc.layers };
  }
  throw new RegistryError('ManifestInvalid', `manifest invalid: unsupported media type ${JSON.stringify(type)}`);
}

/** The index entry for os/architecture (variant ignored); a clear error naming what the index has. */
export function selectPlatform(manifests: Descriptor[], os = 'linux', architecture = 'amd64'): Descriptor {
  const match = manifests.find((m) => m.platform?.os === os && m.platform?.architecture === architecture)
    // an index without platforms (as some containerDisk builders push) has one entry for everyone
    ?? (manifests.length === 1 && !manifests[0].platform ? manifests[0] : undefined);
  if (match) return match;
  const have = manifests.map((m) => `${m.platform?.os ?? '?'}/${m.platform?.architecture ?? '?'}`).join(', ');
  throw new RegistryError('ManifestUnknown', `no matching manifest for ${os}/${architecture} in the manifest list entries (the index has ${have || 'none'})`);
}

export function isValidDigest(digest: string): boolean {
  return DIGEST.test(digest);
}
