/**
 * Image references → store directory names. A containerDisk `image:` is an OCI reference
 * (`[host[:port]/]path[:tag|@digest]`); the store keeps each image in one directory whose name
 * is derived from the canonical reference, so it can never be absolute, `..`, or hold a `/`.
 *
 *   demo, demo:latest                       → canonical `demo:latest`  → dir `demo=latest`
 *   quay.io/containerdisks/cirros:latest    → dir `quay.io+containerdisks+cirros=latest`
 *   localhost:5000/x@sha256:<hex>           → dir `localhost=5000+x@sha256=<hex>`
 *
 * `/` maps to `+` and `:` to `=`; neither may appear in a reference, so the mapping is one-to-one.
 */
export const DEFAULT_TAG = 'latest';

const MAX_REFERENCE_LENGTH = 255;
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::[0-9]+)?$/i;
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-f0-9]{32,}$/;

export interface ImageReference {
  /** `[host/]path` without tag or digest, e.g. `quay.io/containerdisks/cirros`. */
  repository: string;
  tag?: string;
  digest?: string;
  /** `repository:tag` or `repository@digest` (tag defaults to `latest`). */
  canonical: string;
}

/** Parses an image reference; undefined when it is not a valid reference. */
export function parseImageReference(ref: string): ImageReference | undefined {
  if (ref.length === 0 || ref.length > MAX_REFERENCE_LENGTH) return undefined;
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return undefined;
  }
  if (!isValidRepository(rest)) return undefined;
  const canonical = digest ? `${rest}@${digest}` : `${rest}:${tag ?? DEFAULT_TAG}`;
  return { repository: rest, tag: digest ? tag : (tag ?? DEFAULT_TAG), digest, canonical };
}

function isValidRepository(repository: string): boolean {
  const parts = repository.split('/');
  const first = parts[0];
  const hasHost = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasHost && !HOST.test(first)) return false;
  const path = hasHost ? parts.slice(1) : parts;
  return path.length > 0 && path.every((c) => PATH_COMPONENT.test(c));
}

/** The store directory name for a reference; undefined when the reference is invalid. */
export function imageDirName(ref: string): string | undefined {
  const parsed = parseImageReference(ref);
  return parsed ? parsed.canonical.replaceAll('/', '+').replaceAll(':', '=') : undefined;
}
