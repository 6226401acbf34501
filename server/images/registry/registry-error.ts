/**
 * A pull that failed, with the reason a kubelet would show and the registry's own answer in the
 * message (e.g. `manifest unknown: manifest unknown`, `unauthorized: authentication required`).
 */
export type RegistryErrorCode =
  | 'ManifestUnknown' | 'ManifestInvalid' | 'BlobUnknown' | 'Unauthorized' | 'Denied'
  | 'DigestMismatch' | 'NoDisk' | 'Network' | 'InvalidReference' | 'NotPresent' | 'Registry';

export class RegistryError extends Error {
  constructor(readonly code: RegistryErrorCode, message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** The distribution API's error body: {errors: [{code, message}]} → `code: message; …`. */
export function describeRegistryErrors(body: string): string | undefined {
  try {
    const doc = JSON.parse(body) as { errors?: { code?: string; message?: string }[] };
    const parts = (doc.errors ?? []).map((e) => [e.code?.toLowerCase().replaceAll('_', ' '), e.message].filter(Boolean).join(': '));
    return parts.length ? parts.join('; ') : undefined;
  } catch {
    return undefined;
  }
}
