/** A Kubernetes timestamp (RFC 3339, second precision), as metav1.Time serializes it. */
export function formatKubeTime(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A MicroTime (RFC 3339 with microseconds), as Lease renewTime and Event eventTime use. */
export function formatMicroTime(date: Date = new Date()): string {
  return date.toISOString().replace(/Z$/, '000Z');
}
