/** A Kubernetes `Status` error from the API server, read for display: message and per-field causes. */

export interface StatusCause { type?: string; field?: string; message?: string }

export interface ApiFailure {
  code: number;
  reason: string;
  message: string;
  causes: StatusCause[];
}

/** The failure in a response body (a Status object, or plain text). */
export function readApiFailure(code: number, body: unknown): ApiFailure {
  const s = (typeof body === 'string' ? tryParse(body) : body) as { message?: string; reason?: string; details?: { causes?: StatusCause[] } } | undefined;
  const text = typeof body === 'string' ? body.trim() : '';
  return {
    code,
    reason: s?.reason ?? '',
    message: s?.message ?? (text || `HTTP ${code}`),
    causes: s?.details?.causes ?? [],
  };
}

function tryParse(text: string): unknown {
  try { return JSON.parse(text); } catch { return undefined; }
}

/** Causes grouped by field (`spec.template.spec.domain.cpu.cores` → messages); field-less ones under ''. */
export function causesByField(f: ApiFailure): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of f.causes) (out[c.field ?? ''] ??= []).push(c.message ?? c.type ?? 'invalid');
  return out;
}

/** `spec.volumes[1].name` → ['spec', 'volumes', 1, 'name'] (also accepts `spec.volumes.1.name`). */
export function parseFieldPath(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of field.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (part === '') continue;
    out.push(/^\d+$/.test(part) ? Number(part) : part);
  }
  return out;
}

/** Which form field a server cause belongs to, by the end of its path. */
export function formFieldOf(field: string | undefined, map: Record<string, string>): string | undefined {
  if (!field) return undefined;
  const hit = Object.keys(map).filter((suffix) => field.endsWith(suffix)).sort((a, b) => b.length - a.length)[0];
  return hit ? map[hit] : undefined;
}

/** What a user can do about a failed list or action, by HTTP status (0 = no answer at all). */
export function adviseOnFailure(code: number): string {
  if (code === 401) return 'Your sign-in has expired or is not accepted: sign in again.';
  if (code === 403) return 'Your sign-in may not do this: ask an administrator, or sign in with another token.';
  if (code === 404) return 'The resource is not there: the KubeVirt CRDs may not be installed on this cluster.';
  if (code === 0 || code >= 500) return 'The console cannot reach the Kubernetes API server. Check that the cluster (kv up) is running; this page reconnects by itself.';
  return 'Try again; if it keeps failing, the console log has the details.';
}
