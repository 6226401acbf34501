/** emptyDisk capacity bounds: a positive size no larger than the largest emptyDisk the cluster takes. */
import { invalid, required, type Cause } from '../cause';
import { textOf, type JsonObject } from '../json-shape';
import { formatBinaryQuantity, parseQuantity } from '../../../../lib/kubevirt/quantity';

/**
 * The largest emptyDisk we accept (1Ti of qcow2 virtual size). Whether a node can hold it is the
 * scheduler's call: the launcher Pod requests the emptyDisks' total as ephemeral-storage.
 */
export const MAX_EMPTY_DISK_BYTES = 2 ** 40;

export function validateEmptyDiskCapacity(f: string, ed: JsonObject, maxBytes = MAX_EMPTY_DISK_BYTES): Cause[] {
  const field = `${f}.emptyDisk.capacity`;
  if (ed.capacity === undefined || ed.capacity === null) return [required(field, `${field} is a required field`)];
  const bytes = parseQuantity(ed.capacity);
  if (bytes === undefined) return [invalid(field, `${field} '${textOf(ed.capacity)}': must be a valid quantity.`)];
  if (bytes <= 0) return [invalid(field, `${field} '${textOf(ed.capacity)}': must be greater than 0.`)];
  if (bytes > maxBytes) {
    return [invalid(field, `${field} '${textOf(ed.capacity)}' exceeds the maximum emptyDisk capacity of ${formatBinaryQuantity(maxBytes)}`)];
  }
  return [];
}
