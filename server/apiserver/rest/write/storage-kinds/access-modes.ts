/** PersistentVolume(Claim) access and volume modes, validated as kube's core validation does. */
import type { StatusCause } from '../../status-error';
import { forbidden, notSupported } from './field-errors';

export const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] as const;
export const VOLUME_MODES = ['Block', 'Filesystem'] as const;

/** unsupported modes, and ReadWriteOncePod mixed with another mode (the "required" check is the caller's: its wording differs) */
export function accessModeCauses(modes: readonly string[], field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  let rwop = false;
  let other = false;
  for (const m of modes) {
    const known = (ACCESS_MODES as readonly string[]).includes(m);
    if (!known) causes.push(notSupported(field, m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (known) other = true;
  }
  if (rwop && other) causes.push(forbidden(field, 'may not use ReadWriteOncePod with other access modes'));
  return causes;
}

export function volumeModeCauses(mode: unknown, field: string): StatusCause[] {
  if (mode === undefined || mode === null) return [];
  return (VOLUME_MODES as readonly unknown[]).includes(mode) ? [] : [notSupported(field, mode, VOLUME_MODES)];
}
