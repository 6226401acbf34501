/**
 * The hash kube puts in a ReplicaSet's name and `pod-template-hash` label (and a DaemonSet pod's
 * `controller-revision-hash`): FNV-32a of the pod template (plus the collision count when there
 * is one), written in kube's "safe" alphabet (no vowels, no 0/1/3, so it never spells a word).
 * Ours hashes the template's canonical JSON, not Go's struct dump, so the value differs from
 * kube's for the same template; it is stable and has the same form.
 */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString of the decimal hash: each digit mapped into the safe alphabet */
export function safeEncode(s: string): string {
  return [...s].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}

export function computeTemplateHash(template: unknown, collisionCount?: number): string {
  const base = canonicalJson(template);
  return safeEncode(String(fnv32a(collisionCount ? `${base}#${collisionCount}` : base)));
}
